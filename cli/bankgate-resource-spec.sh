#!/usr/bin/env bash
# Writes the CTest resource spec for the GPUs this machine shows to CUDA: one "gpus" entry with one slot per
# GPU, so that `ctest --resource-spec-file FILE -j N` runs at most one GPU test per GPU (each GPU test asks
# for RESOURCE_GROUPS "gpus:1"; see cmake/bankgateSuite.cmake).
#
#   cli/bankgate-resource-spec.sh [FILE]     (FILE omitted or '-': the JSON goes to standard output)
#
# Projects adopting bankgate get it as bankgate-resource-spec beside the bankgate command (in the build's
# cli/ folder, and in bin/ of an installed prefix): `bankgate-resource-spec gpus.json && bankgate gate
# --resource-spec gpus.json ...` spreads their suites over every GPU of the runner.
#
# The ids are the CUDA device indices the tests will use (0, 1, ...), not nvidia-smi's indices: with
# CUDA_VISIBLE_DEVICES=2,3 the tests see those two GPUs as devices 0 and 1. GPUs are listed with nvidia-smi
# (BANKGATE_NVIDIA_SMI names another program that answers like it, e.g. in tests).
#
# Exit codes: 0 written (the number of GPUs is printed on standard error); 2 no GPU visible (nvidia-smi
# missing or failing, no GPU listed, or CUDA_VISIBLE_DEVICES hiding them all); 3 FILE could not be written.
set -uo pipefail

out=${1:--}
smi=${BANKGATE_NVIDIA_SMI:-nvidia-smi}
say() { echo "bankgate: $*" >&2; }
no_gpu() { say "no GPU for the GPU tests: $*"; exit 2; }

command -v "$smi" >/dev/null 2>&1 ||
  no_gpu "$smi is not installed (it comes with the NVIDIA driver); is this a GPU machine?"
listing=$("$smi" --query-gpu=index,uuid --format=csv,noheader 2>&1) ||
  no_gpu "'$smi --query-gpu=index,uuid' failed: $listing"

indices=()
uuids=()
while IFS=', ' read -r index uuid; do
  case $index in '' | *[!0-9]*) continue ;; esac  # not a GPU line (a message, a blank)
  indices+=("$index")
  uuids+=("$uuid")
done <<<"$listing"
[ ${#indices[@]} -gt 0 ] || no_gpu "$smi lists no GPU${listing:+ (it said: $listing)}"

# CUDA enumerates the entries of CUDA_VISIBLE_DEVICES in order and stops at the first it cannot match; the
# count of matched entries is the number of devices the tests see. An index or a (prefix of a) GPU UUID is
# matched against nvidia-smi; a MIG UUID is taken as one device. In doubt, fewer: an id the tests cannot
# open would fail them, one too few only costs parallelism.
count=${#indices[@]}
if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then
  count=0
  seen=" "
  IFS=',' read -r -a entries <<<"$CUDA_VISIBLE_DEVICES"
  for entry in "${entries[@]}"; do
    entry=${entry//[[:space:]]/}
    match=""
    case $entry in
      '' ) ;;
      *[!0-9]*)
        case $entry in
          GPU-?*) for u in "${uuids[@]}"; do [ "${u#"$entry"}" != "$u" ] && match=$u && break; done ;;
          MIG-?*) match=$entry ;;
        esac ;;
      *) for i in "${indices[@]}"; do [ "$i" = "$entry" ] && match=$entry && break; done ;;
    esac
    [ -n "$match" ] || break
    case $seen in *" $match "*) break ;; esac
    seen="$seen$match "
    count=$((count + 1))
  done
  [ "$count" -gt 0 ] || no_gpu "CUDA_VISIBLE_DEVICES='$CUDA_VISIBLE_DEVICES' hides every GPU from CUDA"
fi

json='{"version": {"major": 1, "minor": 0}, "local": [{"gpus": ['
for ((id = 0; id < count; id++)); do
  json+="$([ "$id" -gt 0 ] && printf ', '){\"id\": \"$id\", \"slots\": 1}"
done
json+=']}]}'

if [ "$out" = - ]; then
  printf '%s\n' "$json"
else
  # Through a temporary file and a rename, so a ctest reading the spec never sees half of it.
  tmp="$out.tmp.$$"
  { printf '%s\n' "$json" >"$tmp" && mv -f "$tmp" "$out"; } 2>/dev/null ||
    { rm -f "$tmp"; say "cannot write the resource spec to $out"; exit 3; }
fi
where=""; [ "$out" = - ] || where=" in $out"
say "resource spec$where: $count GPU(s), CTest ids 0..$((count - 1))"
