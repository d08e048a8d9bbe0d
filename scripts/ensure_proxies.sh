#!/usr/bin/env bash
# The front-door tests (tests/ops/test_front_door.py) put the app behind the
# proxies an operator would run: Caddy and nginx, both from Debian's packages
# (deploy/Caddyfile, deploy/nginx.conf). Install what is missing, as
# ensure_browser.sh does for Chromium. Only the binaries are needed: the tests
# start each proxy themselves on a free loopback port, never as a service.
set -euo pipefail

missing=()
command -v caddy >/dev/null 2>&1 || [ -x /usr/bin/caddy ] || missing+=(caddy)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
# the test fills deploy/nginx.conf in as an operator does, and makes nginx's certificate
command -v envsubst >/dev/null 2>&1 || missing+=(gettext-base)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "ensure_proxies: missing ${missing[*]}; run as root to install them" \
        "(apt-get install -y ${missing[*]}). The front-door tests may be skipped." >&2
    exit 0
fi

echo "ensure_proxies: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# the package lists may be older than the archive (a fresh container has none)
if ! apt-cache policy "${missing[@]}" 2>/dev/null | grep -q "Candidate: [0-9]"; then
    apt-get update -qq
fi
apt-get install -y -qq --no-install-recommends "${missing[@]}"
