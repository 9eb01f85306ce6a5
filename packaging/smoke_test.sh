#!/usr/bin/env bash
# Check a built bundle: headless, offline, without the development environment.
#   packaging/smoke_test.sh [BUNDLE_DIR]     (default: packaging/dist/sialign)
#   SIALIGN_SMOKE_WHISPER=DIR packaging/smoke_test.sh   transcribe with that Whisper model folder when the
#                                                       bundle carries none (packaging/dev.sh bundle sets it)
# Runs the frozen CLI (--version, doctor, doctor --full, models, demo, align
# on the example talk with a TSV export whose header is checked against the
# export code, see tsv_header.py; in a lean build, that a user model is
# refused with a message naming the full build) and the frozen
# desktop app's --smoke-test offscreen (also with --with-filters: the scoring
# process); prints the bundle size and start-up
# times. Exit status 0 when every check passed.
set -uo pipefail
cd "$(dirname "$0")/.."
DIST=$(cd "${1:-packaging/dist/sialign}" 2>/dev/null && pwd) || { echo "no bundle at ${1:-packaging/dist/sialign}; run packaging/build.sh" >&2; exit 2; }
CLI="$DIST/sialign"
GUI="$DIST/sialign-gui"
WORK=$(mktemp -d -t sialign-smoke.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/home" "$WORK/runtime" && chmod 700 "$WORK/runtime"
# ALSA's null device stands in for a sound card on machines without one.
printf '</usr/share/alsa/alsa.conf>\npcm.!default { type plug slave.pcm "null" }\n' > "$WORK/alsa.conf"

# A bare environment: no virtual environment on PATH, no PYTHON* variables, an
# empty home (no user models, no caches, no Hugging Face cache).
BARE=(env -i "HOME=$WORK/home" "PATH=/usr/bin:/bin" "LANG=C.UTF-8" "QT_QPA_PLATFORM=offscreen"
      "XDG_RUNTIME_DIR=$WORK/runtime" "ALSA_CONFIG_PATH=$WORK/alsa.conf" "OMP_NUM_THREADS=1")
# Without network when the kernel lets us make an empty network namespace.
if unshare -rn true 2>/dev/null; then
    BARE=(unshare -rn "${BARE[@]}"); NET="none (empty network namespace)"
else
    NET="not isolated (unshare unavailable); the programs set HF_HUB_OFFLINE=1"
fi

failures=0
declare -a SUMMARY=()
pass() { echo "  ok    $1"; SUMMARY+=("ok    $1"); }
fail() { echo "  FAIL  $1" >&2; SUMMARY+=("FAIL  $1"); failures=$((failures + 1)); }

# run NAME CMD...: run with the bare environment, keep its output in $WORK/NAME.log (standard output
# alone in $WORK/NAME.out), time it.
run() {
    local name=$1; shift
    local t0 t1
    t0=$(date +%s.%N)
    "${BARE[@]}" "$@" > "$WORK/$name.out" 2> "$WORK/$name.err"
    local rc=$?
    cat "$WORK/$name.out" "$WORK/$name.err" > "$WORK/$name.log"
    t1=$(date +%s.%N)
    LAST_S=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
    return $rc
}

echo "Bundle: $DIST"
echo "Network: $NET"
[ -x "$CLI" ] && [ -x "$GUI" ] || { echo "sialign or sialign-gui missing in $DIST" >&2; exit 2; }
# The header the export code writes (read from the source, never a copy that can go stale).
TSV_HEADER=$(python3 packaging/tsv_header.py) || { echo "cannot read the TSV header from the export code" >&2; exit 2; }
TSV_NCOL=$(printf '%s\n' "$TSV_HEADER" | awk -F'\t' '{print NF}')
# The lean build (build.sh --lean) has no torch: it must refuse user models with a clear message.
VARIANT=$(cat "$DIST/BUILD_VARIANT" 2>/dev/null || echo full)
echo "Variant: $VARIANT"
SIZE=$(du -sh "$DIST" | cut -f1)
FILES=$(find "$DIST" -type f | wc -l)

# Start-up: the first run reads the files from disk, later runs from the page cache.
run version_cold "$CLI" --version && COLD=$LAST_S || { fail "sialign --version"; COLD="-"; }
run version_warm "$CLI" --version && WARM=$LAST_S || WARM="-"
if grep -q "^sialign " "$WORK/version_warm.log"; then pass "sialign --version ($(cat "$WORK/version_warm.log"))"; else fail "sialign --version"; fi
run help "$CLI" --help && HELP_S=$LAST_S && pass "sialign --help (${HELP_S} s)" || fail "sialign --help"

# fact NAME KEY.KEY...: one of the facts in `doctor --json`'s output $WORK/NAME.out, as JSON text
# (null when it is missing). The checks read these keys, never the layout of the text report;
# tests/cli/test_cli_doctor.py holds the keys read here.
fact() {
    python3 - "$WORK/$1.out" "$2" <<'PY' 2>/dev/null || echo null
import json, sys
value = json.load(open(sys.argv[1], encoding="utf-8"))["facts"]
for key in sys.argv[2].split("."):
    value = value.get(key) if isinstance(value, dict) else None
print(json.dumps(value))
PY
}
if run doctor "$CLI" doctor; then
    DOCTOR_S=$LAST_S
    pass "doctor (the text report, ${DOCTOR_S} s)"
else
    fail "sialign doctor (see below)"; sed 's/^/    /' "$WORK/doctor.log" | tail -20
fi
if run doctor_json "$CLI" doctor --json; then
    [ "$(fact doctor_json ginza.installed)" = true ] && pass "doctor: GiNZA installed" || fail "doctor: GiNZA not found in the bundle"
    [ "$(fact doctor_json audio.libsndfile)" != null ] && pass "doctor: libsndfile $(fact doctor_json audio.libsndfile)" || fail "doctor: libsndfile"
    [ "$(fact doctor_json audio.portaudio)" != null ] && pass "doctor: PortAudio" || fail "doctor: PortAudio"
    # The desktop's own Qt platform: X11 on Linux, Cocoa on macOS.
    WINDOWING=xcb; [ "$(uname -s)" = Darwin ] && WINDOWING=cocoa
    PLUGINS=$(fact doctor_json qt.platform_plugins)
    case "$PLUGINS" in *'"offscreen"'*) case "$PLUGINS" in *"\"$WINDOWING\""*) OK_QT=1 ;; *) OK_QT= ;; esac ;; *) OK_QT= ;; esac
    [ -n "$OK_QT" ] && pass "doctor: Qt platforms $WINDOWING + offscreen" || fail "doctor: Qt platform plugins ($PLUGINS)"
    [ "$(fact doctor_json system.network)" = '"none used"' ] && pass "doctor: no network used" || fail "doctor: network $(fact doctor_json system.network)"
else
    fail "sialign doctor --json (see below)"; sed 's/^/    /' "$WORK/doctor_json.log" | tail -20
fi
if run doctor_full "$CLI" doctor --full --json || [ "$VARIANT" = lean ]; then
    if [ "$(fact doctor_full ginza.load_check.loaded)" = true ]; then
        pass "GiNZA loads frozen: loaded in $(fact doctor_full ginza.load_check.seconds) s; $(fact doctor_full ginza.load_check.tokens) tokens in a test sentence"
    else
        fail "GiNZA load in the bundle: $(fact doctor_full ginza.load_check)"
    fi
    if [ "$VARIANT" = lean ]; then
        [ ! -e "$DIST/_internal/torch" ] && pass "lean build: no torch in the bundle" || fail "lean build carries torch"
    else
        [ "$(fact doctor_full torch.version)" != null ] && pass "torch imports frozen" || fail "torch import in the bundle"
    fi
else
    fail "sialign doctor --full"; tail -20 "$WORK/doctor_full.log" >&2
fi

if run models "$CLI" models list; then
    pass "models list"
    # Columns: [*] NAME KIND SOURCE ...; the bundled sentence model, and the bundled speech model.
    bundled_of_kind() {
        awk -v kind="$1" '{ if ($1 == "*") { n = $2; k = $3; s = $4 } else { n = $1; k = $2; s = $3 } }
                          s == "bundled" && k == kind { print n }' "$WORK/models.log" | head -1
    }
    bundled=$(bundled_of_kind sentence)
    BUNDLED_WHISPER=$(bundled_of_kind whisper)
    if [ -n "$bundled" ]; then
        run model_check "$CLI" models check "$bundled" && pass "bundled model '$bundled': $(cut -c1-120 "$WORK/model_check.log" | tail -1)" \
            || { fail "bundled model '$bundled' does not load"; tail -5 "$WORK/model_check.log" >&2; }
    fi
else
    fail "models list"; tail -5 "$WORK/models.log" >&2
fi

# The desktop app, offscreen: open the example, align, export TSV, check it.
if run gui_smoke "$GUI" --smoke-test; then
    GUI_S=$LAST_S; pass "sialign-gui --smoke-test in ${GUI_S} s: $(grep 'smoke test' "$WORK/gui_smoke.log" | tail -1)"
else
    GUI_S="-"; fail "sialign-gui --smoke-test"; tail -25 "$WORK/gui_smoke.log" >&2
fi

# Filter scoring runs in a second process started from the frozen program
# (multiprocessing spawn + freeze_support) and loads GiNZA there.
if run gui_filters "$GUI" --smoke-test --with-filters; then
    pass "sialign-gui --smoke-test --with-filters in ${LAST_S} s: $(grep 'scoring process' "$WORK/gui_filters.log" | tail -1)"
else
    fail "sialign-gui --smoke-test --with-filters (scoring process)"; tail -25 "$WORK/gui_filters.log" >&2
fi

# The same on a real X server (Qt's xcb plugin and the system's X libraries), when Xvfb is installed.
if command -v xvfb-run >/dev/null 2>&1; then
    if run gui_xcb xvfb-run -a -s "-screen 0 1280x800x24" env QT_QPA_PLATFORM=xcb "$GUI" --smoke-test; then
        pass "sialign-gui --smoke-test on X11 (Xvfb) in ${LAST_S} s"
    else
        fail "sialign-gui --smoke-test on X11 (Xvfb)"; tail -15 "$WORK/gui_xcb.log" >&2
    fi
else
    echo "  skip  X11 run (xvfb-run not installed)"
fi

# check_tsv FILE: the parallel TSV header and at least one well-formed row.
check_tsv() {
    local file=$1
    [ -s "$file" ] || { echo "no TSV written"; return 1; }
    [ "$(head -1 "$file" | tr -d '\r')" = "$TSV_HEADER" ] || { echo "unexpected header: $(head -1 "$file") (expected: $TSV_HEADER)"; return 1; }
    local rows bad
    rows=$(($(wc -l < "$file") - 1))
    bad=$(awk -F'\t' -v n="$TSV_NCOL" 'NR > 1 && NF != n' "$file" | wc -l)
    [ "$rows" -ge 1 ] && [ "$bad" -eq 0 ] || { echo "$rows rows, $bad without $TSV_NCOL columns"; return 1; }
    echo "$rows rows"
}

# The command line on the example talk.
if grep -q "^    demo " "$WORK/help.log"; then
    if run demo "$CLI" demo -o "$WORK/demo"; then
        DEMO_S=$LAST_S
        DEMO_TSV=$(ls "$WORK"/demo/*.tsv 2>/dev/null | head -1)
        if msg=$(check_tsv "$DEMO_TSV"); then pass "sialign demo in ${DEMO_S} s: TSV with $msg"; else fail "sialign demo TSV: $msg"; fi
        ls "$WORK"/demo/*.sialign >/dev/null 2>&1 && pass "sialign demo wrote a project" || fail "sialign demo wrote no .sialign project"
        # The trainer's PDF report (fpdf2 and the embedded CJK font are in the bundle).
        DEMO_PROJECT=$(ls "$WORK"/demo/*.sialign 2>/dev/null | head -1)
        if [ -n "$DEMO_PROJECT" ] && run report "$CLI" report "$DEMO_PROJECT" -o "$WORK/report.pdf" \
                && [ "$(head -c 5 "$WORK/report.pdf")" = "%PDF-" ]; then
            pass "sialign report -o report.pdf in ${LAST_S} s: $(($(wc -c < "$WORK/report.pdf") / 1024)) KB"
        else
            fail "sialign report -o report.pdf"; tail -5 "$WORK/report.log" >&2
        fi
    else
        DEMO_S="-"; fail "sialign demo"; tail -15 "$WORK/demo.log" >&2
    fi
else
    DEMO_S="-"; fail "sialign demo: no such subcommand in this build"
fi
if grep -q "^    align " "$WORK/help.log"; then
    # The example transcripts as shipped inside the bundle.
    SRC=$(ls "$DIST"/_internal/resources/examples/*.en.srt 2>/dev/null | head -1)
    TGT=$(ls "$DIST"/_internal/resources/examples/*.ja.srt 2>/dev/null | grep -v -i ref | head -1)
    if [ -n "$SRC" ] && [ -n "$TGT" ] && run align "$CLI" align "$SRC" "$TGT" -o "$WORK/align.tsv"; then
        ALIGN_S=$LAST_S
        if msg=$(check_tsv "$WORK/align.tsv"); then pass "sialign align in ${ALIGN_S} s: TSV with $msg"; else fail "sialign align TSV: $msg"; fi
        # English -> Japanese with nothing configured: the built-in multilingual encoder, found in the bundle.
        if grep -q "^embedder: use-multilingual" "$WORK/align.log"; then
            pass "sialign align en->ja used the built-in multilingual encoder"
        else
            fail "sialign align en->ja did not use use-multilingual: $(grep '^embedder' "$WORK/align.log")"
        fi
    else
        ALIGN_S="-"; fail "sialign align on the example talk ($SRC, $TGT)"; tail -15 "$WORK/align.log" >&2
    fi
    # The lean build and a user model: one clear line naming the full build, no traceback.
    if [ "$VARIANT" = lean ]; then
        mkdir -p "$WORK/user-model" && echo '[]' > "$WORK/user-model/modules.json"
        if run align_lean_model "$CLI" align "$SRC" "$TGT" --model "$WORK/user-model" -o "$WORK/align_lean.tsv"; then
            fail "lean build: align --model with a user model folder succeeded"
        elif grep -q "lean build.*full build" "$WORK/align_lean_model.log" && ! grep -q Traceback "$WORK/align_lean_model.log"; then
            pass "lean build refuses a user model: $(grep -o 'this is the lean build[^—]*' "$WORK/align_lean_model.log" | head -1)"
        else
            fail "lean build: no clear message for a user model"; tail -5 "$WORK/align_lean_model.log" >&2
        fi
    fi
    # With the bundled model, the neural path (torch + sentence-transformers) runs frozen too.
    if [ -n "${bundled:-}" ]; then
        if run align_model "$CLI" align "$SRC" "$TGT" --model "$bundled" -o "$WORK/align_model.tsv" \
                && grep -q "embedder: $bundled" "$WORK/align_model.log"; then
            MODEL_S=$LAST_S
            if msg=$(check_tsv "$WORK/align_model.tsv"); then pass "sialign align --model $bundled in ${MODEL_S} s: TSV with $msg"; else fail "align with $bundled: $msg"; fi
        else
            fail "sialign align --model $bundled"; tail -15 "$WORK/align_model.log" >&2
        fi
    fi
else
    ALIGN_S="-"; fail "sialign align: no such subcommand in this build"
fi

# Speech recognition, in both builds: the command, faster-whisper and CTranslate2 are in the bundle,
# PyAV is not (soundfile decodes). The Japanese example track is transcribed offline with the bundled
# Whisper model (the full build's resources/models/) or, without one, SIALIGN_SMOKE_WHISPER=DIR.
if run transcribe_help "$CLI" transcribe --help && grep -q -- "--model NAME|DIR" "$WORK/transcribe_help.log"; then
    pass "sialign transcribe --help"
else
    fail "sialign transcribe --help"; tail -5 "$WORK/transcribe_help.log" >&2
fi
[ "$(fact doctor_json speech.faster_whisper)" != null ] && pass "doctor: faster-whisper" || fail "doctor: faster-whisper not in the bundle"
[ ! -e "$DIST/_internal/av" ] && pass "no PyAV in the bundle" || fail "the bundle carries PyAV"
WHISPER_ARGS=()
if [ -n "${BUNDLED_WHISPER:-}" ]; then
    # No --model: the only Whisper model installed is the default.
    pass "models list shows the bundled speech model $BUNDLED_WHISPER"
elif [ "$VARIANT" = full ] && [ -n "${SIALIGN_SMOKE_WHISPER:-}" ]; then
    fail "the full build carries no Whisper model (packaging/dev.sh bundle bundles one)"
elif [ -n "${SIALIGN_SMOKE_WHISPER:-}" ]; then
    WHISPER_ARGS=(--model "$SIALIGN_SMOKE_WHISPER")
fi
CLIP=$(ls "$DIST"/_internal/resources/examples/*.ja.ogg 2>/dev/null | head -1)
if [ -n "${BUNDLED_WHISPER:-}" ] || [ -n "${SIALIGN_SMOKE_WHISPER:-}" ]; then
    if [ -n "$CLIP" ] && run transcribe "$CLI" transcribe "$CLIP" "${WHISPER_ARGS[@]}" --language ja --role interpretation \
            --threads 2 -q -o "$WORK/talk.ja.srt" && grep -q -- "-->" "$WORK/talk.ja.srt"; then
        TRANSCRIBE_S=$LAST_S
        pass "sialign transcribe of $(basename "$CLIP") (Japanese, 168 s) in ${LAST_S} s: $(grep -c -- '-->' "$WORK/talk.ja.srt") timed chunks"
    else
        TRANSCRIBE_S="-"; fail "sialign transcribe ${WHISPER_ARGS[*]}"; tail -5 "$WORK/transcribe.log" >&2
    fi
else
    echo "  skip  transcription (no Whisper model in the bundle; set SIALIGN_SMOKE_WHISPER=DIR)"
fi

echo
echo "Bundle size: $SIZE in $FILES files ($DIST)"
echo "Start-up, sialign --version: ${COLD} s first run, ${WARM} s again; --help ${HELP_S:--} s; doctor ${DOCTOR_S:--} s"
echo "sialign-gui --smoke-test (start, align the example, export, check, quit): ${GUI_S} s"
echo "sialign demo: ${DEMO_S} s; sialign align: ${ALIGN_S} s${MODEL_S:+; with the bundled model: ${MODEL_S} s}${TRANSCRIBE_S:+; transcribe 168 s of Japanese: ${TRANSCRIBE_S} s}"
if [ "$failures" -eq 0 ]; then
    echo "SMOKE TEST PASSED"
else
    echo "SMOKE TEST FAILED: $failures check(s)"
fi
exit $((failures > 0))
