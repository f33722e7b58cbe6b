// Pure helpers for the events page: past or upcoming at view time, and the photo gallery index.

/** Whether an event starting at `startsAt` (data-starts-at) is past at `now` (ms since the epoch);
 *  null when the date does not parse, in which case the server's rendering is left as it is. */
export function isPast(startsAt: string | undefined, now: number): boolean | null {
  const t = Date.parse(startsAt ?? "");
  return Number.isNaN(t) ? null : t < now;
}

/** The slide shown after moving `delta` from `index` among `count` slides, wrapping at both ends. */
export function galleryIndex(index: number, delta: number, count: number): number {
  return (index + delta + count) % count;
}
