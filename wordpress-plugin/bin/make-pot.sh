#!/usr/bin/env bash
# Regenerates languages/sitebeam.pot from the PHP and block sources (GNU gettext's xgettext; no WP-CLI needed).
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
echo "languages/sitebeam.pot: $(grep -c '^msgid "[^"]' languages/sitebeam.pot) strings"
