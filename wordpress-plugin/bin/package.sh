#!/usr/bin/env bash
# Builds dist/sitebeam-wordpress.zip (top folder sitebeam/) from the plugin sources, the built block and the
# tracker, contact and chat widgets built in snippet/dist/ (or $SITEBEAM_SNIPPET_DIST). Run after `npm run build`.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
plugin="$root/wordpress-plugin"
zip_path="$root/dist/sitebeam-wordpress.zip"
snippet_dist="${SITEBEAM_SNIPPET_DIST:-$root/snippet/dist}"

# assets/js/ holds only these gitignored copies, so a fresh clone has no such folder.
mkdir -p "$plugin/assets/js"
for script in sitebeam.min.js sitebeam-form.min.js sitebeam-chat.min.js; do
  if [ ! -f "$snippet_dist/$script" ]; then
    echo "package.sh: $snippet_dist/$script is missing: run npm run build first" >&2
    exit 1
  fi
  # Replaced whole, never rewritten in place: another layer may be packaging from it at the same time.
  cmp -s "$snippet_dist/$script" "$plugin/assets/js/$script" ||
    { cp "$snippet_dist/$script" "$plugin/.$script.$$" && mv -f "$plugin/.$script.$$" "$plugin/assets/js/$script"; }
done
for block in contact-form chat; do
  if [ ! -f "$plugin/build/$block/block.json" ]; then
    echo "package.sh: wordpress-plugin/build/$block is missing: run npm run build first" >&2
    exit 1
  fi
done

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/sitebeam"
cd "$plugin"
cp -r sitebeam.php uninstall.php readme.txt src templates languages assets build "$stage/sitebeam/"
mkdir -p "$root/dist"
# Written beside, then moved: layers side by side (tests/run-all.sh) package and unzip it at the same time.
rm -f "$zip_path.$$"
(cd "$stage" && zip -qrX "$zip_path.$$" sitebeam)
mv -f "$zip_path.$$" "$zip_path"
echo "package.sh: dist/sitebeam-wordpress.zip ($(wc -c <"$zip_path") bytes, $(unzip -Z1 "$zip_path" | grep -vc '/$') files)"
