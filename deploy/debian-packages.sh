# Sourced by the install scripts (deploy/install-*.sh, testing/install-*.sh): the steps every one of them takes to
# install Debian packages quietly, as root or through sudo. Each script keeps its own checks (what must be there
# after) and messages (what cannot run without it).
#
#   as_root "<what to run by hand>" || exit 1      sets SUDO ('' as root, 'sudo' otherwise); 1 when neither
#   apt_install "<purpose>" <package>...            apt-get update and install, no recommends; output shown only
#                                                   when it fails (then status 1)
#   apt_install_not_started "<purpose>" <package>... the same, with a policy-rc.d answering "do not start" in place
#                                                   for the install when there is none: the tests run their own
#                                                   servers on loopback ports, and a package's post-install script
#                                                   would start its service (invoke-rc.d and deb-systemd-invoke ask
#                                                   /usr/sbin/policy-rc.d first; 101 means "do not start")

as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    SUDO=
  elif command -v sudo >/dev/null 2>&1; then
    SUDO=sudo
  else
    echo "$1" >&2
    return 1
  fi
}

apt_install() {
  purpose=$1
  shift
  echo "installing $* (Debian packages) for $purpose"
  log=$(mktemp)
  # apt, dpkg, debconf and the maintainer scripts talk a lot: their output is shown only when the install fails.
  if DEBIAN_FRONTEND=noninteractive $SUDO apt-get update -qq >"$log" 2>&1 &&
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends -o Dpkg::Use-Pty=0 "$@" >>"$log" 2>&1; then
    rm -f "$log"
    return 0
  fi
  cat "$log" >&2
  rm -f "$log"
  return 1
}

apt_install_not_started() {
  policy=/usr/sbin/policy-rc.d
  own_policy=
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\n# Put here by deploy/debian-packages.sh for an install; removed after it.\nexit 101\n' | $SUDO tee "$policy" >/dev/null
    $SUDO chmod 755 "$policy"
    own_policy=1
  fi
  status=0
  apt_install "$@" || status=1
  if [ -n "$own_policy" ]; then $SUDO rm -f "$policy"; fi
  return $status
}
