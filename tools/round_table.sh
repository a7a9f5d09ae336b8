# shellcheck shell=bash disable=SC2154  # $out is the sourcing script's
# The table a GPU round prints last, for the scripts that run named steps on a GPU machine (tools/gpu-round.sh,
# bench/outside-hopper-gemm.sh). Source it after setting $out (the folder of the steps' logs); round_label_width
# sets the label column (default 50).
rows=()
note() { rows+=("$(printf "%-${round_label_width:-50}s %s" "$1" "$2")"); }  # note LABEL TEXT: one line of the table
# expect LABEL WANT LOG COMMAND...: runs COMMAND, its output in $out/LOG; the table gets its exit code, the one
# wanted (- for none), its seconds, and UNEXPECTED where they differ. Returns the command's status.
expect() {
  local label=$1 want=$2 log=$3 start=$SECONDS status
  shift 3
  "$@" >"$out/$log" 2>&1
  status=$?
  local text="exit $status"
  [ "$want" = - ] || {
    text+=" (want $want)"
    [ "$status" = "$want" ] || text+=" UNEXPECTED"
  }
  note "$label" "$text, $((SECONDS - start))s"
  return "$status"
}
