#!/usr/bin/env bash
# Prints what upstream cwcloud-api answers Sitebeam's calls, release by release (the source of
# contract/upstream.md): status, the headers that matter and the body of each.
# Usage: SITEBEAM_PLATFORMS=DIR bash tests/upstream/record-answers.sh [RELEASE...]
set -uo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=../support/upstream.sh
source tests/support/upstream.sh

ask() { # title, curl arguments...
  local title=$1
  shift
  echo "### $title"
  curl -s -i "$@" | tr -d '\r' | grep -iv '^\(date\|server\|content-length\):' | sed 's/^/    /'
  echo
}

json=(-H 'content-type: application/json')
releases=("$@")
[ ${#releases[@]} -gt 0 ] || releases=(3.16.15 3.15.24)
for release in "${releases[@]}"; do
  for cors in on off; do
    if upstream_unavailable "$release"; then
      echo "upstream $release: SKIPPED, $UPSTREAM_UNAVAILABLE" >&2
      exit 1
    fi
    start_upstream "$release" --cors "$cors" || exit 1
    url=$SITEBEAM_UPSTREAM_URL
    auth=(-H "X-Auth-Token: $SITEBEAM_UPSTREAM_TOKEN")
    echo "## cwcloud-api $release, CORS $cors"
    echo
    if [ "$cors" = on ]; then
      ask 'email sent' -X POST "$url/v1/email" "${auth[@]}" "${json[@]}" -d '{"to":"someone@example.com","subject":"Hi","content":"Hello"}'
      ask 'email, invalid address' -X POST "$url/v1/email" "${auth[@]}" "${json[@]}" -d '{"to":"nope","subject":"Hi"}'
      ask 'email, special-use domain' -X POST "$url/v1/email" "${auth[@]}" "${json[@]}" -d '{"to":"ana@shop.local","subject":"Hi"}'
      ask 'email, empty body' -X POST "$url/v1/email" "${auth[@]}" "${json[@]}" -d '{}'
      ask 'wrong token' -X POST "$url/v1/email" -H 'X-Auth-Token: wrong' "${json[@]}" -d '{}'
      ask 'no token' -X POST "$url/v1/email" "${json[@]}" -d '{}'
      ask 'models' "$url/v1/ai/models" "${auth[@]}"
      ask 'models, account without the AI API' "$url/v1/ai/models" -H "X-Auth-Token: $SITEBEAM_UPSTREAM_TOKEN_WITHOUT_AI"
      ask 'models, account not confirmed' "$url/v1/ai/models" -H "X-Auth-Token: $SITEBEAM_UPSTREAM_TOKEN_UNCONFIRMED"
      ask 'load log' "$url/v1/ai/model/log" "${auth[@]}"
      ask 'load an unknown model' "$url/v1/ai/model/no-such-model" "${auth[@]}"
      ask 'prompt log, num_beans=3' -X POST "$url/v1/ai/prompt" "${auth[@]}" "${json[@]}" -d '{"model":"log","message":"Hello","settings":{"num_beans":3}}'
      ask 'prompt, unknown model' -X POST "$url/v1/ai/prompt" "${auth[@]}" "${json[@]}" -d '{"model":"no-such-model","message":"Hello"}'
      ask 'prompt, no message' -X POST "$url/v1/ai/prompt" "${auth[@]}" "${json[@]}" -d '{"model":"log"}'
      ask 'tracker, website with /' "$url/v1/tracker/json/shop.example.com%2Fblog"
      ask 'tracker img' "$url/v1/tracker/img/shop.example.com" -o /dev/null -w 'HTTP %{http_code} %{content_type}, %{size_download} bytes\n'
    fi
    ask 'tracker json' "$url/v1/tracker/json/shop.example.com" -H 'Origin: https://shop.example.com' -H 'User-Agent: Mozilla/5.0 (X11; Linux x86_64)'
    ask 'tracker json, CORS preflight' -X OPTIONS "$url/v1/tracker/json/shop.example.com" -H 'Origin: https://shop.example.com' -H 'Access-Control-Request-Method: GET'
    stop_upstream
  done
done
