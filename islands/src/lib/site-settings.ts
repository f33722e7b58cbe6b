// Settings of the site the islands show, passed in every island's props by the build
// (generator views::IslandProps) and kept here by mountIsland.
let validityMonths: number | null = null;

/** settings.yaml `credits.default_validity_months`: what "Default" grants in the admin's forms. */
export function defaultValidityMonths(): number | null {
  return validityMonths;
}

export function setDefaultValidityMonths(value: unknown): void {
  validityMonths = typeof value === "number" && Number.isInteger(value) && value > 0 ? value : null;
}
