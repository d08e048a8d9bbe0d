#!/usr/bin/env bash
# Browser tests drive the system Chromium (never a downloaded build) and need
# CJK fonts to render Korean; translations need gettext's msgfmt. Install what
# is missing from Debian's packages, which is all this machine can reach.
set -euo pipefail

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
dpkg-query -W -f='${Status}' fonts-noto-cjk 2>/dev/null | grep -q "install ok installed" \
    || missing+=(fonts-noto-cjk)
command -v msgfmt >/dev/null 2>&1 || missing+=(gettext)
# the invite page's QR codes are read back in the browser tests by a real decoder
command -v zbarimg >/dev/null 2>&1 || missing+=(zbar-tools)

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "ensure_browser: missing ${missing[*]}; run as root to install them" \
        "(apt-get install -y ${missing[*]}). Browser tests may be skipped." >&2
    exit 0
fi

echo "ensure_browser: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
