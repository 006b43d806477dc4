/**
 * Several URL templates of the same tiles on different hosts (t0…t7.tianditu, a/b/c.tile…) as Cesium
 * takes them: one template with {s} where they differ, and the differing parts as subdomains.
 */
export function subdomainTemplate(tiles: readonly string[]): { url: string; subdomains?: string[] } {
  const first = tiles[0] ?? '';
  if (tiles.length < 2) return { url: first };
  let prefix = first.length;
  for (const t of tiles) {
    let p = 0;
    while (p < prefix && p < t.length && t[p] === first[p]) p++;
    prefix = p;
  }
  let suffix = first.length - prefix;
  for (const t of tiles) {
    let s = 0;
    while (s < suffix && s < t.length - prefix && t[t.length - 1 - s] === first[first.length - 1 - s]) s++;
    suffix = s;
  }
  // The hosts differ inside a placeholder or not at all: one template is as good as all of them.
  const head = first.slice(0, prefix);
  const tail = first.slice(first.length - suffix);
  const subdomains = tiles.map((t) => t.slice(prefix, t.length - suffix));
  if (subdomains.some((s) => s === '' || s.includes('{') || s.includes('}')) || head.includes('{s}')) return { url: first };
  return { url: `${head}{s}${tail}`, subdomains };
}
