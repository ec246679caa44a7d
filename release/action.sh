#!/bin/sh
# The steps of the trajeval GitHub Action (action.yml at the repository's
# root), as one script so that they can run outside a CI runner too.
#
# Inputs come as INPUT_* variables: INPUT_PATH (suite file or folder),
# INPUT_TRACES, INPUT_VERSION (a release tag, default latest), INPUT_ARGS
# (more eval flags), INPUT_JUNIT (the JUnit file to write). The runner's
# RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP and GITHUB_STEP_SUMMARY say where.
# TRAJEVAL_BINARY skips the download and uses that binary.
# The exit code is eval's: 0 all passed, 1 some case failed, 2 bad input.
set -eu
: "${INPUT_PATH:?the action needs path: a suite file or folder}"
tmp=${RUNNER_TEMP:-$(mktemp -d)}
bin=${TRAJEVAL_BINARY:-}
if [ -z "$bin" ]; then
  case "${RUNNER_OS:-Linux}" in
    Linux) os=linux ext=tar.gz ;; macOS) os=darwin ext=tar.gz ;; Windows) os=windows ext=zip ;;
    *) echo "trajeval action: unknown RUNNER_OS ${RUNNER_OS}" >&2; exit 2 ;;
  esac
  case "${RUNNER_ARCH:-X64}" in
    X64) arch=amd64 ;; ARM64) arch=arm64 ;;
    *) echo "trajeval action: no trajeval build for RUNNER_ARCH ${RUNNER_ARCH}" >&2; exit 2 ;;
  esac
  tag=${INPUT_VERSION:-latest}
  base=https://github.com/trajeval/trajeval/releases
  if [ "$tag" = latest ]; then url=$base/latest/download; else url=$base/download/$tag; fi
  dir=$tmp/trajeval-bin
  mkdir -p "$dir"
  cd "$dir"
  curl -fsSL -o SHA256SUMS "$url/SHA256SUMS"
  name=$(grep "_${os}_${arch}\.${ext}\$" SHA256SUMS | awk '{print $2}')
  [ -n "$name" ] || { echo "trajeval action: no ${os}/${arch} archive in release $tag" >&2; exit 2; }
  curl -fsSL -o "$name" "$url/$name"
  grep " $name\$" SHA256SUMS | sha256sum -c --quiet -
  if [ "$ext" = zip ]; then unzip -q -o "$name"; bin=$dir/trajeval.exe; else tar xzf "$name"; bin=$dir/trajeval; fi
  cd - >/dev/null
fi
results=$tmp/trajeval-results.jsonl
junit=${INPUT_JUNIT:-trajeval-junit.xml}
set +e
# INPUT_ARGS is split on spaces on purpose: it holds flags.
# shellcheck disable=SC2086
"$bin" eval "$INPUT_PATH" ${INPUT_TRACES:+--traces "$INPUT_TRACES"} --no-db -q --out "$results" ${INPUT_ARGS:-}
code=$?
set -e
if [ -s "$results" ]; then
  "$bin" report --format junit -o "$junit" "$results"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    "$bin" report --format markdown "$results" >>"$GITHUB_STEP_SUMMARY"
  fi
fi
exit $code
