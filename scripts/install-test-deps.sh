#!/usr/bin/env bash
# The system tools the test suite needs besides Node: Debian's chromium (the HTML report is
# tested in a real headless browser; no browser is downloaded by npm) and cmark-gfm (GitHub's
# Markdown renderer, used to check the pull-request comment as GitHub shows it).
# Installs only what is missing, with sudo when not root. Run by `npm test` first (its pretest
# script), so also by .ci/run.
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v cmark-gfm >/dev/null 2>&1 || missing+=(cmark-gfm)
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

run() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  else
    sudo "$@"
  fi
}

echo "installing ${missing[*]} (apt-get)" >&2
run apt-get update -qq
DEBIAN_FRONTEND=noninteractive run apt-get install -y --no-install-recommends "${missing[@]}"
