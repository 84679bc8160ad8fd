#!/usr/bin/env bash
# Regenerates languages/sitebeam.pot from the PHP and block sources and the blocks' block.json (GNU gettext's xgettext
# and msgcat; no WP-CLI needed).
set -euo pipefail
cd "$(dirname "$0")/.."
keywords=(--keyword=__ --keyword=_e --keyword=esc_html__ --keyword=esc_html_e --keyword=esc_attr__
  --keyword=esc_attr_e --keyword=_x:1,2c --keyword=_n:1,2 --keyword=_n_noop:1,2 --keyword=_nx_noop:1,2,3c)
common=(--from-code=UTF-8 --add-comments=translators: --sort-by-file --package-name=Sitebeam
  --package-version="$(sed -n 's/^ \* Version: *//p' sitebeam.php)")
find sitebeam.php uninstall.php src templates -name '*.php' | sort |
  xgettext --language=PHP "${keywords[@]}" "${common[@]}" --files-from=- --output=languages/sitebeam.pot
find blocks assets/admin -name '*.js' | sort |
  xgettext --language=JavaScript "${keywords[@]}" "${common[@]}" --join-existing --files-from=- --output=languages/sitebeam.pot
sed -i 's/^"Content-Type: text\/plain; charset=CHARSET\\n"/"Content-Type: text\/plain; charset=UTF-8\\n"/' languages/sitebeam.pot
# The blocks' titles, descriptions and keywords from block.json, which xgettext does not read.
block_strings="$(mktemp --suffix=.pot)"
trap 'rm -f "$block_strings"' EXIT
php bin/block-strings.php blocks/*/block.json >"$block_strings"
msgcat --use-first --sort-by-file --output-file=languages/sitebeam.pot languages/sitebeam.pot "$block_strings"
echo "languages/sitebeam.pot: $(grep -c '^msgid "[^"]' languages/sitebeam.pot) strings"
