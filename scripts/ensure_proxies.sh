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

bash "$(dirname "$0")/install_missing.sh" ensure_proxies "The front-door tests may be skipped." "${missing[@]}"
