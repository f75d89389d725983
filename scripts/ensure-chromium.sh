#!/usr/bin/env bash
# The end-to-end tests drive Debian's Chromium; install it when it is missing (as root, from Debian's
# packages — nothing downloads a browser from elsewhere).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "Chromium is missing: run 'sudo apt-get update && sudo apt-get install -y chromium'" >&2
  exit 1
fi
echo "Installing Debian's chromium for the end-to-end tests..."
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
/usr/bin/chromium --version
