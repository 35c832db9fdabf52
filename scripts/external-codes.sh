#!/usr/bin/env bash
# mheta on an application nobody here wrote: LAMMPS, built from Debian's
# source package against MPICH, and three of its own benchmark inputs
# (bench/in.lj, in.chain, in.eam), unmodified. For each: the program's own
# loop time ("Loop time of T on N procs for S steps", the median of RUNS
# runs without the interposer), `mheta run` of it (the default automatic
# capture), and `mheta predict` of its own distribution on a cluster
# measured here once, as a Markdown table (docs/results.md, "Programs from
# Debian's sources").
#
# Usage: scripts/external-codes.sh BUILD_DIR [WORK_DIR]
#   WORK_DIR (default ~/.cache/mheta-external) keeps the sources and the
#   LAMMPS build between runs: the first run fetches and builds it (about
#   20 minutes on 2 cores), later ones only run.
# RUNS=N (default 3) runs without the interposer per input; NP=N ranks
# (default 2); STEPS_LJ, STEPS_CHAIN, STEPS_EAM: the inputs' run lengths
# (500, 1000, 200).
#
# The sources come with `apt-get source` from the deb-src entry of this
# machine's own Debian archive, through a private apt state in WORK_DIR
# (the system's sources and lists are left as they are).
set -euo pipefail
build=$(cd "${1:?usage: external-codes.sh BUILD_DIR [WORK_DIR]}" && pwd)
work=${2:-$HOME/.cache/mheta-external}
runs=${RUNS:-3}
np=${NP:-2}
mheta=$build/cli/mheta
[[ -x $mheta ]] || { echo "external-codes.sh: $mheta: not built" >&2; exit 2; }
mkdir -p "$work"
work=$(cd "$work" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)

lammps=$work/lammps/build/lmp
if [[ ! -x $lammps ]]; then
  # Debian's archive as this machine names it, with deb-src.
  apt_dir=$work/apt
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial"
  archive=$(grep -rhoE '^URIs: *\S+debian/?$' /etc/apt/sources.list.d/ 2>/dev/null | head -n 1 | awk '{print $2}')
  archive=${archive:-http://deb.debian.org/debian}
  suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  printf 'deb-src %s %s main\n' "$archive" "$suite" >"$apt_dir/sources.list"
  apt_options=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o "Dir::Etc::SourceParts=/nonexistent"
               -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache::Archives=$apt_dir/archives")
  echo "external-codes.sh: fetching lammps' Debian source package into $work" >&2
  apt-get "${apt_options[@]}" update -qq
  (cd "$work" && apt-get "${apt_options[@]}" source --download-only -qq lammps)
  tarball=$(ls "$work"/lammps_*.orig.tar.* | head -n 1)
  rm -rf "$work/lammps"
  mkdir -p "$work/lammps"
  tar -xf "$tarball" -C "$work/lammps" --strip-components=1
  echo "external-codes.sh: building LAMMPS (MPICH; MOLECULE and MANYBODY for in.chain and in.eam)" >&2
  cmake -S "$work/lammps/cmake" -B "$work/lammps/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_MPI=ON \
    -DMPI_CXX_COMPILER=mpicxx -DPKG_MOLECULE=ON -DPKG_MANYBODY=ON -DBUILD_OMP=OFF >"$work/lammps-cmake.log"
  cmake --build "$work/lammps/build" -j "$(nproc)" >"$work/lammps-make.log"
fi

# The inputs, with their run lengths set.
inputs=$work/inputs
mkdir -p "$inputs"
bench=$work/lammps/bench
cp "$bench/data.chain" "$bench/Cu_u3.eam" "$inputs/"
sed "s/^run.*/run ${STEPS_LJ:-500}/" "$bench/in.lj" >"$inputs/in.lj"
sed "s/^run.*/run ${STEPS_CHAIN:-1000}/" "$bench/in.chain" >"$inputs/in.chain"
sed "s/^run.*/run ${STEPS_EAM:-200}/" "$bench/in.eam" >"$inputs/in.eam"

cluster=$work/cluster-$np.json
"$mheta" microbench -n "$np" --budget 30 -o "$cluster" --program "$build/microbench/mheta-microbench" \
  >"$work/microbench.log" 2>&1

python3 "$root/scripts/external_table.py" --mheta "$mheta" --np "$np" --runs "$runs" --cluster "$cluster" \
  --dir "$inputs" --program "$lammps" in.lj in.chain in.eam
