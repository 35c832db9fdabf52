#!/bin/sh
# expect_failure.sh CODE REGEX -- COMMAND...: passes when COMMAND exits with
# CODE ("nonzero": any failure) and its output matches REGEX (grep -E).
code=$1
regex=$2
shift 3
output=$("$@" 2>&1)
status=$?
printf '%s\n' "$output"
if [ "$code" = nonzero ]; then
  [ "$status" -ne 0 ] || { echo "expected a failure, got exit status 0"; exit 1; }
else
  [ "$status" -eq "$code" ] || { echo "expected exit status $code, got $status"; exit 1; }
fi
printf '%s\n' "$output" | grep -Eq -- "$regex" || { echo "expected a message matching: $regex"; exit 1; }
