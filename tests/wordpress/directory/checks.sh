#!/usr/bin/env bash
# What the WordPress.org plugin directory checks before it lists the plugin, run by `npm run lint` (tests/lint-php.sh):
#  - the unit tests of the rules below and the .pot's block strings (Debian's PHPUnit; always);
#  - Plugin Check's nine PHPCS checks, each as Plugin Check runs it (its arguments in Abstract_PHP_CodeSniffer_Check
#    and each check's get_args), on the built zip (wordpress-plugin/bin/package.sh): 0 errors;
#  - Plugin Check's readme and plugin header rules (Readme_Rules.php), "Tested up to" against the current WordPress
#    release read from the archive the WordPress layer runs (tests/wordpress/env.sh);
#  - PHPCompatibility(WP) for the PHP the plugin's header requires.
# The PHPCS parts need phpcs-standards.tar.xz and phpcs-review-standards.tar.xz, the readme rules the WordPress
# archive, in $SITEBEAM_PLATFORMS: each says SKIPPED without them (and writes $SITEBEAM_RESULTS/<check>.skipped).
set -uo pipefail
cd "$(dirname "$0")/../../.."
# shellcheck source=../../support/lint-lib.sh
source tests/support/lint-lib.sh
# shellcheck source=../env.sh
source tests/wordpress/env.sh
how_to_get="see ../shared/platforms/README.md, or download the release from https://wordpress.org/download/releases/ and set WORDPRESS_ARCHIVE"
status=0

phpunit --do-not-cache-result --colors=never tests/wordpress/directory || status=1

# The plugin as the directory receives it; a tree that is not built yet (npm run build) says SKIPPED.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if ! bash wordpress-plugin/bin/package.sh >/dev/null 2>"$work/package.log"; then
  for check in plugin-directory-readme plugin-directory-phpcs plugin-phpcompatibility; do
    lint_skip "$check" "the plugin zip could not be built: $(tail -n 1 "$work/package.log")"
  done
  exit $status
fi
unzip -q dist/sitebeam-wordpress.zip -d "$work"
plugin="$work/sitebeam"
requires_php="$(sed -n 's/^ \* Requires PHP: *//p' "$plugin/sitebeam.php")"
requires_wp="$(sed -n 's/^ \* Requires at least: *//p' "$plugin/sitebeam.php")"

# The current release's version, as its wp-includes/version.php says, read once per archive.
archive="$(wordpress_current_archive)"
if [ -z "$archive" ] || [ ! -f "$archive" ]; then
  lint_skip plugin-directory-readme "no WordPress release archive${archive:+ at $archive} to read the current version from; $how_to_get"
else
  cache="$PWD/.tmp/lint/wordpress-version"
  stamp="$archive $(stat -c '%s %Y' "$archive")"
  if [ "$(sed -n 1p "$cache" 2>/dev/null)" != "$stamp" ]; then
    mkdir -p "$(dirname "$cache")"
    version="$(tar -xJOf "$archive" --wildcards '*/wp-includes/version.php' | sed -n "s/^\$wp_version = '\([^']*\)';.*/\1/p")"
    printf '%s\n%s\n' "$stamp" "$version" >"$cache"
  fi
  current="$(sed -n 2p "$cache")"
  if php tests/wordpress/directory/readme-rules.php "$plugin" "$current"; then
    echo "plugin directory: readme.txt and the plugin header pass Plugin Check's rules (current WordPress $current)"
  else
    status=1
  fi
fi

if ! standards="$(standards_folder phpcs-standards)" || ! review="$(standards_folder phpcs-review-standards)"; then
  reason="${review:-$standards}"
  lint_skip plugin-directory-phpcs "$reason"
  lint_skip plugin-phpcompatibility "$reason"
  exit $status
fi
installed_paths="$standards/wpcs,$standards/phpcsutils,$standards/phpcsextra,$standards/variable-analysis,$review/vipcs,$review/plugin-check/phpcs-sniffs,$review/phpcompatibility,$review/phpcompatibility-wp,$review/phpcompatibility-paragonie"

# Runs one Plugin Check check: PHPCS with Plugin Check's defaults and the check's own arguments; prints its errors
# and warnings and fails when there is an error.
plugin_check() { # name, phpcs arguments...
  local name=$1 report="$work/$1.json"
  shift
  php "$standards/phpcs/bin/phpcs" "$plugin" --report=json --report-width=9999 \
    --ignore='*/.git/*,*/vendor/*,*/node_modules/*' --runtime-set minimum_wp_version "$requires_wp" \
    --runtime-set installed_paths "$installed_paths" --extensions=php "$@" >"$report"
  php -r '
    $report = json_decode((string) file_get_contents($argv[1]), true);
    if (!is_array($report)) { fwrite(STDERR, "$argv[2]: PHPCS did not report\n"); exit(1); }
    foreach ($report["files"] as $file => $result) {
      foreach ($result["messages"] as $m) {
        printf("  %s %s:%d %s (%s)\n", $m["type"], substr($file, strlen($argv[3]) + 1), $m["line"], $m["message"], $m["source"]);
      }
    }
    printf("plugin check %s: %d errors, %d warnings\n", $argv[2], $report["totals"]["errors"], $report["totals"]["warnings"]);
    exit($report["totals"]["errors"] > 0 ? 1 : 0);
  ' "$report" "$name" "$plugin"
}
for check in \
  'plugin_review_phpcs --standard='"$review"'/plugin-check/phpcs-rulesets/plugin-review.xml' \
  'i18n_usage --standard=WordPress --sniffs=WordPress.WP.I18n --runtime-set text_domain sitebeam' \
  'enqueued_resources --standard=WordPress --sniffs=WordPress.WP.EnqueuedResources' \
  'enqueued_scripts_in_footer --standard=WordPress --sniffs=WordPress.WP.EnqueuedResourceParameters' \
  'image_functions --standard=PluginCheck --sniffs=PluginCheck.CodeAnalysis.ImageFunctions' \
  'performant_wp_query_params --standard=WordPress,WordPressVIPMinimum --sniffs=WordPress.DB.SlowDBQuery,WordPressVIPMinimum.Performance.WPQueryParams' \
  'offloading_files --standard=PluginCheck --sniffs=PluginCheck.CodeAnalysis.EnqueuedResourceOffloading,PluginCheck.CodeAnalysis.Offloading' \
  'direct_db_queries --standard=WordPress --sniffs=WordPress.DB.DirectDatabaseQuery' \
  'late_escaping --standard=WordPress --sniffs=WordPress.Security.EscapeOutput'; do
  # shellcheck disable=SC2086 # the check's name and arguments, split as Plugin Check passes them
  plugin_check $check || status=1
done

if php "$standards/phpcs/bin/phpcs" "$plugin" -q -s --runtime-set installed_paths "$installed_paths" \
  --standard=PHPCompatibilityWP --runtime-set testVersion "$requires_php-" --extensions=php; then
  echo "PHPCompatibility: the plugin is clean for PHP $requires_php and later (its Requires PHP)"
else
  status=1
fi
exit $status
