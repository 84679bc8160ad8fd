#!/usr/bin/env bash
# Builds dist/sitebeam-drupal.zip (top folder sitebeam/) from drupal-module/ and the built snippet.
# Run after `npm run build` (root `npm run package` does both).
set -euo pipefail
repo_root="$(cd "$(dirname "$0")/../.." && pwd)"
module_dir="$repo_root/drupal-module"
snippet_dist="$repo_root/snippet/dist"
out="$repo_root/dist/sitebeam-drupal.zip"

for built in sitebeam.min.js sitebeam-form.min.js sitebeam-chat.min.js; do
  if [ ! -f "$snippet_dist/$built" ]; then
    echo "package: $snippet_dist/$built is missing: run npm run build first" >&2
    exit 1
  fi
done

staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
mkdir -p "$staging/sitebeam"
# Only files git knows (tracked or new, not ignored): no test output, no local copies.
(cd "$module_dir" && git ls-files --cached --others --exclude-standard -- . ':!bin' ':!phpcs.xml.dist' ':!.gitignore') |
  while IFS= read -r file; do
    [ -f "$module_dir/$file" ] || continue
    mkdir -p "$staging/sitebeam/$(dirname "$file")"
    cp "$module_dir/$file" "$staging/sitebeam/$file"
  done
# The version is the newest heading of CHANGELOG.md, added to the info file as drupal.org's packaging adds it.
version="$(sed -n 's/^## \([0-9][^ ]*\).*/\1/p' "$module_dir/CHANGELOG.md" | head -n 1)"
[ -n "$version" ] || { echo "package: no '## <version>' heading in drupal-module/CHANGELOG.md" >&2; exit 1; }
printf "\n# Added by bin/package.sh from CHANGELOG.md.\nversion: '%s'\n" "$version" >>"$staging/sitebeam/sitebeam.info.yml"
mkdir -p "$staging/sitebeam/js"
cp "$snippet_dist/sitebeam.min.js" "$snippet_dist/sitebeam-form.min.js" "$snippet_dist/sitebeam-chat.min.js" "$staging/sitebeam/js/"

mkdir -p "$(dirname "$out")"
rm -f "$out"
(cd "$staging" && zip -qr -X "$out" sitebeam)
echo "package: $out (version $version, $(unzip -Z1 "$out" | wc -l) entries)"
