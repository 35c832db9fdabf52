#!/usr/bin/env bash
# Installs mheta's build and run dependencies from Debian's packages.
# Idempotent: does nothing when every package is already installed.
set -euo pipefail

packages=(
  build-essential cmake pkg-config git
  mpich libmpich-dev libhdf5-mpich-dev hdf5-tools gfortran libcoarrays-mpich-dev
  libeigen3-dev nlohmann-json3-dev libcli11-dev
  libxxhash-dev libboost-math-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-jsonschema
  chromium
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "mheta: installing ${missing[*]}" >&2
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
