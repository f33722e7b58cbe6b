// Pure helper for the logo carousel. The track holds the logos twice; the carousel slides one
// logo at a time and, once it has slid onto the copy of the first logo, jumps back to 0 unseen.

/** The index to settle on when a slide transition ends: 0 once past the last real logo. */
export function carouselSettle(index: number, count: number): number {
  return index >= count ? 0 : index;
}
