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

bash "$(dirname "$0")/install_missing.sh" ensure_browser "Browser tests may be skipped." "${missing[@]}"
