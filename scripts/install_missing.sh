#!/usr/bin/env bash
# Install Debian packages the tests need, for ensure_browser.sh and ensure_proxies.sh:
#   install_missing.sh WHO WHAT_IS_SKIPPED PACKAGE...
# Nothing to do without packages; without root, say what to run and carry on (the tests
# that need them say so themselves, and fail under CI=true).
set -euo pipefail

who=$1 skipped=$2
shift 2
[ $# -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    echo "$who: missing $*; run as root to install them (apt-get install -y $*). $skipped" >&2
    exit 0
fi

echo "$who: installing $*"
export DEBIAN_FRONTEND=noninteractive
# the package lists may be older than the archive, or absent in a fresh container
if ! apt-cache policy "$@" 2>/dev/null | grep -q "Candidate: [0-9]"; then
    apt-get update -qq
fi
apt-get install -y -qq --no-install-recommends "$@"
