#!/usr/bin/env bash
# Run a command with a real OS keychain: a private D-Bus session, a fresh HOME and an unlocked
# gnome-keyring Secret Service. Used by the tests that touch the keychain.
#   scripts/with-keyring.sh <command> [args...]
set -euo pipefail
if [ -z "${MOMO_KEYRING_INNER:-}" ]; then
  command -v dbus-run-session >/dev/null || { echo "with-keyring: dbus-run-session missing (apt-get install dbus)" >&2; exit 1; }
  command -v gnome-keyring-daemon >/dev/null || { echo "with-keyring: gnome-keyring-daemon missing (apt-get install gnome-keyring)" >&2; exit 1; }
  export MOMO_KEYRING_INNER=1
  # A keyring of its own, whatever session this was started from.
  unset GNOME_KEYRING_CONTROL SSH_AUTH_SOCK
  export MOMO_REAL_HOME="${HOME:-/root}"
  HOME="$(mktemp -d -t momo-keyring-home.XXXXXX)"
  export HOME
  export XDG_DATA_HOME="$HOME/.local/share" XDG_CONFIG_HOME="$HOME/.config" XDG_RUNTIME_DIR="$HOME/.run"
  mkdir -p "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$XDG_RUNTIME_DIR"
  chmod 700 "$XDG_RUNTIME_DIR"
  # D-Bus starts the Secret Service on demand when none answers: after the daemon died (it can abort on a GLib fatal
  # error under load), the system's service file would start a locked one that asks for a prompt nobody can answer,
  # and every later keychain call would fail. This session's own files start it unlocked over the same keyring file.
  mkdir -p "$XDG_DATA_HOME/dbus-1/services"
  activate="$XDG_DATA_HOME/dbus-1/keyring-unlocked.sh"
  printf '#!/bin/sh\nprintf "momo-test-keyring\\n" | exec gnome-keyring-daemon --foreground --components=secrets --unlock\n' >"$activate"
  chmod 700 "$activate"
  for name in org.freedesktop.secrets org.gnome.keyring; do
    printf '[D-BUS Service]\nName=%s\nExec=%s\n' "$name" "$activate" >"$XDG_DATA_HOME/dbus-1/services/$name.service"
  done
  trap 'rm -rf "$HOME"' EXIT
  dbus-run-session -- "$0" "$@"
  exit $?
fi
# Inside the D-Bus session: create and unlock the login keyring, then start the secrets component.
printf 'momo-test-keyring\n' | gnome-keyring-daemon --unlock >/dev/null
eval "$(gnome-keyring-daemon --start --components=secrets 2>/dev/null)"
export GNOME_KEYRING_CONTROL
exec "$@"
