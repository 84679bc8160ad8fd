#!/usr/bin/env bash
# Benchmark: the Drupal outbox's recovery, 200 mails waiting after a one-hour backoff, on a one-minute cron
# (drupal-module/tests/src/Kernel/OutboxDrainBench.php): the seconds from the instance's recovery to an empty
# outbox and the drain rate, for this code and for the outbox before issue #35 (commit $before_ref, its classes
# renamed into the benchmark's namespace). Runs on Drupal 10.3.14 (DRUPAL_ROOT, or SITEBEAM_PLATFORMS'
# archive, unpacked as tests/drupal/run.sh does). Prints numbers.
set -uo pipefail
cd "$(dirname "$0")/../.."
before_ref=bcb920a
root="${DRUPAL_ROOT:-$PWD/.tmp/platforms/drupal-10.3.14}"
if [ ! -f "$root/core/lib/Drupal.php" ] && [ -z "${DRUPAL_ROOT:-}" ] && [ -f "${SITEBEAM_PLATFORMS:-}/drupal-10.3.14.tar.xz" ]; then
  mkdir -p "$root.partial" && tar -xJf "$SITEBEAM_PLATFORMS/drupal-10.3.14.tar.xz" -C "$root.partial" &&
    mv "$root.partial/drupal-10.3.14" "$root" && rmdir "$root.partial"
fi
if [ ! -f "$root/core/lib/Drupal.php" ]; then
  echo "drupal bench: SKIPPED (no Drupal 10.3.14: set DRUPAL_ROOT, or SITEBEAM_PLATFORMS to the folder holding drupal-10.3.14.tar.xz)"
  exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/before"
for class in Backoff Outbox OutboxSender; do
  git show "$before_ref:drupal-module/src/Outbox/$class.php" |
    sed 's/^namespace Drupal\\sitebeam\\Outbox;/namespace Drupal\\Tests\\sitebeam\\Bench\\Before;\n\nuse Drupal\\sitebeam\\Outbox\\OutboxFullException;\nuse Drupal\\sitebeam\\Outbox\\OutboxItem;/' \
      >"$work/before/$class.php" || exit 1
done
SITEBEAM_BENCH_BEFORE="$work/before" SITEBEAM_BENCH_BEFORE_REF="$before_ref" SITEBEAM_BENCH_REPORT="$work/report.txt" \
  SITEBEAM_KERNEL_TESTS=modules/custom/sitebeam/tests/src/Kernel/OutboxDrainBench.php DRUPAL_ROOT="$root" \
  bash tests/drupal/kernel.sh "$work/bench.xml" >"$work/phpunit.log" 2>&1 || { cat "$work/phpunit.log"; exit 1; }
cat "$work/report.txt"
