#!/usr/bin/env bash
# The previous release of the plugin or the module, built from git history for the upgrade tests
# (tests/wordpress/upgrade, tests/drupal/upgrade), once per commit into .tmp/previous-release/<commit>/.
# Usage: previous-release.sh wordpress   prints the path of its sitebeam-wordpress.zip
#        previous-release.sh drupal      prints the path of its module folder (what its zip holds)
#        previous-release.sh version     prints its version
# The release's own files come from git (`git archive`), packaged by its own wordpress-plugin/bin/package.sh;
# the built scripts and blocks, which git does not hold, are today's build (run `npm run build` first). When
# the commit is not in this clone's history (a shallow clone), it prints why on stderr and exits 3.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"

# After each release, the release's commit (README: "Versions and releases").
commit=6fa7eddf02948afde0e45144ce7479e02e029b64

part="${1:-}"
case "$part" in
  wordpress | drupal | version) ;;
  *) echo "usage: previous-release.sh wordpress|drupal|version" >&2; exit 2 ;;
esac

if ! git -C "$repo" cat-file -e "$commit^{commit}" 2>/dev/null; then
  echo "the previous release's commit $commit is not in this clone's history (a shallow clone?): git fetch --unshallow" >&2
  exit 3
fi
if [ "$part" = version ]; then
  git -C "$repo" show "$commit:wordpress-plugin/sitebeam.php" | sed -n 's/^ \* Version: *//p'
  exit 0
fi
for built in "$repo/snippet/dist/sitebeam.min.js" "$repo/wordpress-plugin/build/contact-form/block.json"; do
  [ -f "$built" ] || { echo "$built is missing: run npm run build first" >&2; exit 1; }
done

out="$repo/.tmp/previous-release/$commit"
# Side by side, the WordPress and Drupal layers may both ask: one builds, the other waits.
mkdir -p "$out"
exec 9>"$out.lock"
flock 9
if [ ! -f "$out/.built" ]; then
  rm -rf "$out" && mkdir -p "$out"
  git -C "$repo" archive "$commit" wordpress-plugin drupal-module | tar -x -C "$out"
  cp -r "$repo/wordpress-plugin/build" "$out/wordpress-plugin/build"
  SITEBEAM_SNIPPET_DIST="$repo/snippet/dist" bash "$out/wordpress-plugin/bin/package.sh" >&2
  mkdir -p "$out/drupal-module/js"
  cp "$repo/snippet/dist/"sitebeam{,-form,-chat}.min.js "$out/drupal-module/js/"
  touch "$out/.built"
fi
case "$part" in
  wordpress) echo "$out/dist/sitebeam-wordpress.zip" ;;
  drupal) echo "$out/drupal-module" ;;
esac
