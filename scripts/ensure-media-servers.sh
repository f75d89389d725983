#!/usr/bin/env bash
# The end-to-end tests of large rooms and strict networks start Debian's Janus (/usr/bin/janus) and
# coturn (/usr/bin/turnserver), and put a client in a network namespace of its own (`ip`, from
# iproute2). Install whichever is missing (as root, from Debian's packages), as ensure-chromium.sh does
# for the browser.
set -euo pipefail
missing=()
[ -x /usr/bin/janus ] || missing+=(janus)
[ -x /usr/bin/turnserver ] || missing+=(coturn)
command -v ip >/dev/null 2>&1 || [ -x /usr/sbin/ip ] || [ -x /sbin/ip ] || missing+=(iproute2)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "Missing for large classes, TURN relays and their tests: ${missing[*]}: run 'sudo apt-get update && sudo apt-get install -y ${missing[*]}'" >&2
  exit 1
fi
echo "Installing Debian's ${missing[*]} (large classes, TURN relays and their tests)..."
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
# Debian may start the services it has just installed; the tests start their own, on their own ports.
for package in "${missing[@]}"; do
  case "$package" in janus | coturn) ;; *) continue ;; esac
  if [ -x "/etc/init.d/$package" ]; then "/etc/init.d/$package" stop >/dev/null 2>&1 || true; fi
done
/usr/bin/janus --version 2>/dev/null | head -1 || true
/usr/bin/turnserver --version 2>/dev/null | head -1 || true
