// Keeps the compiled generator between Netlify builds (netlify.toml [[plugins]]).
//
// scripts/netlify-build.sh looks in .site-cache/ for a `site` binary built from exactly the
// generator's current code (its file name carries a hash of that code) and compiles only when
// there is none. This plugin gives it that folder back from the previous build and keeps it for
// the next one, through Netlify's own build cache (@netlify/cache-utils, which Netlify hands
// every plugin as `utils.cache`). No npm package is needed.
const CACHE = ".site-cache";

module.exports = {
  async onPreBuild({ utils }) {
    const restored = await utils.cache.restore(CACHE);
    console.log(restored ? `restored ${CACHE}/ from the build cache` : `no ${CACHE}/ in the build cache yet`);
  },
  // onPostBuild runs only when the build command succeeded: a failed compile never replaces a
  // good cache. (onSuccess would run after Netlify has already stored its cache.)
  async onPostBuild({ utils }) {
    const saved = await utils.cache.save(CACHE);
    console.log(saved ? `saved ${CACHE}/ to the build cache` : `nothing to save in ${CACHE}/`);
  },
};
