# Check a built bundle on Windows: the PowerShell twin of packaging/smoke_test.sh.
#   powershell -File packaging\smoke_test.ps1 [-Bundle packaging\dist\sialign]
# Runs the frozen CLI (--version, --help, doctor, doctor --full, models list,
# demo, align on the example talk with a TSV export whose header is checked
# against the export code via packaging\tsv_header.py; in a lean build, that a
# user model is refused with a message naming the full build) and the desktop
# app's --smoke-test offscreen, with an empty user profile. Exit status 0 when
# every check passed.
param([string]$Bundle = "packaging\dist\sialign")
$ErrorActionPreference = "Continue"
Set-Location (Join-Path $PSScriptRoot "..")
if (-not (Test-Path $Bundle)) { Write-Error "no bundle at $Bundle; build it first"; exit 2 }
$Dist = (Resolve-Path $Bundle).Path
$Cli = Join-Path $Dist "sialign.exe"
$Gui = Join-Path $Dist "sialign-gui.exe"
if (-not ((Test-Path $Cli) -and (Test-Path $Gui))) { Write-Error "sialign.exe or sialign-gui.exe missing in $Dist"; exit 2 }

$Work = Join-Path ([IO.Path]::GetTempPath()) ("sialign-smoke-" + [guid]::NewGuid().ToString("N").Substring(0, 8))
New-Item -ItemType Directory -Path (Join-Path $Work "home") | Out-Null
# An empty profile: no user models, no caches, no Hugging Face cache.
$env:USERPROFILE = Join-Path $Work "home"
$env:LOCALAPPDATA = Join-Path $Work "home\AppData\Local"
$env:APPDATA = Join-Path $Work "home\AppData\Roaming"
$env:HF_HOME = Join-Path $Work "home\hf"
$env:QT_QPA_PLATFORM = "offscreen"
$env:OMP_NUM_THREADS = "1"
$env:PYTHONIOENCODING = "utf-8"
Remove-Item Env:PYTHONPATH, Env:PYTHONHOME, Env:VIRTUAL_ENV -ErrorAction SilentlyContinue

$script:Failures = 0
function Pass([string]$What) { Write-Host "  ok    $What" }
function Fail([string]$What) { Write-Host "  FAIL  $What"; $script:Failures++ }

# Run-Program NAME EXE ARGS...: output in $Work\NAME.log (standard output alone in NAME.log.out);
# returns the exit code, sets $script:Seconds.
function Run-Program([string]$Name, [string]$Exe, [string[]]$Arguments) {
    $log = Join-Path $Work "$Name.log"
    $watch = [Diagnostics.Stopwatch]::StartNew()
    $p = Start-Process -FilePath $Exe -ArgumentList $Arguments -NoNewWindow -Wait -PassThru `
        -RedirectStandardOutput "$log.out" -RedirectStandardError "$log.err"
    $watch.Stop()
    Copy-Item "$log.out" $log -ErrorAction SilentlyContinue
    Get-Content "$log.err" -ErrorAction SilentlyContinue | Add-Content $log
    $script:Seconds = "{0:N2}" -f $watch.Elapsed.TotalSeconds
    return $p.ExitCode
}
function Log([string]$Name) { return (Get-Content (Join-Path $Work "$Name.log") -Raw -ErrorAction SilentlyContinue) + "" }
# Facts NAME: the facts of a `doctor --json` run, by section and key (tests/cli/test_cli_doctor.py holds
# the keys read here); never the layout of the text report. $null when the output is not JSON.
function Facts([string]$Name) {
    try { return ((Get-Content (Join-Path $Work "$Name.log.out") -Raw -Encoding UTF8) | ConvertFrom-Json).facts } catch { return $null }
}

$Header = (& python packaging\tsv_header.py)
if ($LASTEXITCODE -ne 0 -or -not $Header) { Write-Error "cannot read the TSV header from the export code"; exit 2 }
$NCol = $Header.Split("`t").Count
function Check-Tsv([string]$File) {
    if (-not (Test-Path $File)) { return "no TSV written" }
    $lines = Get-Content $File -Encoding UTF8
    if ($lines[0] -ne $Header) { return "unexpected header: $($lines[0]) (expected: $Header)" }
    $rows = $lines.Count - 1
    $bad = @($lines | Select-Object -Skip 1 | Where-Object { $_.Split("`t").Count -ne $NCol }).Count
    if ($rows -lt 1 -or $bad -gt 0) { return "$rows rows, $bad without $NCol columns" }
    return $null
}

$Variant = "full"
if (Test-Path (Join-Path $Dist "BUILD_VARIANT")) { $Variant = (Get-Content (Join-Path $Dist "BUILD_VARIANT") -Raw).Trim() }
Write-Host "Bundle: $Dist ($Variant build)"
$Size = "{0:N0} MB" -f ((Get-ChildItem $Dist -Recurse -File | Measure-Object Length -Sum).Sum / 1MB)

if ((Run-Program "version" $Cli @("--version")) -eq 0 -and (Log "version") -match "^sialign ") { Pass "sialign --version ($Seconds s)" } else { Fail "sialign --version" }
if ((Run-Program "help" $Cli @("--help")) -eq 0) { Pass "sialign --help ($Seconds s)" } else { Fail "sialign --help" }
if ((Run-Program "doctor" $Cli @("doctor")) -eq 0) { Pass "doctor (the text report, $Seconds s)" } else { Fail "sialign doctor"; Log "doctor" | Write-Host }
$f = $null
if ((Run-Program "doctor_json" $Cli @("doctor", "--json")) -eq 0) { $f = Facts "doctor_json" }
if ($null -ne $f) {
    if ($f.ginza.installed -eq $true) { Pass "doctor: GiNZA installed" } else { Fail "doctor: GiNZA not found in the bundle" }
    if ($null -ne $f.audio.libsndfile) { Pass "doctor: libsndfile $($f.audio.libsndfile)" } else { Fail "doctor: libsndfile" }
    if ($null -ne $f.audio.portaudio) { Pass "doctor: PortAudio" } else { Fail "doctor: PortAudio" }
    if (($f.qt.platform_plugins -contains "windows") -and ($f.qt.platform_plugins -contains "offscreen")) { Pass "doctor: Qt platforms windows + offscreen" } else { Fail "doctor: Qt platform plugins ($($f.qt.platform_plugins -join ', '))" }
    if ($f.system.network -eq "none used") { Pass "doctor: no network used" } else { Fail "doctor: network $($f.system.network)" }
    if ($null -ne $f.speech.faster_whisper) { Pass "doctor: faster-whisper" } else { Fail "doctor: faster-whisper not in the bundle" }
} else { Fail "sialign doctor --json"; Log "doctor_json" | Write-Host }
$rc = Run-Program "doctor_full" $Cli @("doctor", "--full", "--json")
$ff = Facts "doctor_full"
if ($null -ne $ff -and $ff.ginza.load_check.loaded -eq $true) {
    Pass "GiNZA loads frozen: loaded in $($ff.ginza.load_check.seconds) s; $($ff.ginza.load_check.tokens) tokens in a test sentence"
} else { Fail "GiNZA load in the bundle"; Log "doctor_full" | Write-Host }
if ($Variant -eq "lean") {
    if (-not (Test-Path (Join-Path $Dist "_internal\torch"))) { Pass "lean build: no torch in the bundle" } else { Fail "lean build carries torch" }
} elseif ($rc -eq 0 -and $null -ne $ff -and $null -ne $ff.torch.version) { Pass "torch imports frozen" } else { Fail "sialign doctor --full / torch import" }
if ((Run-Program "models" $Cli @("models", "list")) -eq 0) { Pass "models list" } else { Fail "models list" }

# sialign-gui.exe is a windowed program: its exit status is the verdict.
if ((Run-Program "gui_smoke" $Gui @("--smoke-test")) -eq 0) { $GuiS = $Seconds; Pass "sialign-gui --smoke-test in $GuiS s" } else { $GuiS = "-"; Fail "sialign-gui --smoke-test" }

$Demo = Join-Path $Work "demo"
if ((Run-Program "demo" $Cli @("demo", "-o", "`"$Demo`"")) -eq 0) {
    $tsv = Get-ChildItem $Demo -Filter *.tsv | Select-Object -First 1
    $msg = if ($tsv) { Check-Tsv $tsv.FullName } else { "no TSV written" }
    if ($null -eq $msg) { Pass "sialign demo in $Seconds s: TSV checked" } else { Fail "sialign demo TSV: $msg" }
    $DemoProject = Get-ChildItem $Demo -Filter *.sialign | Select-Object -First 1
    if ($DemoProject) { Pass "sialign demo wrote a project" } else { Fail "sialign demo wrote no .sialign project" }
    # The trainer's PDF report (fpdf2 and the embedded CJK font are in the bundle).
    $Pdf = Join-Path $Work "report.pdf"
    if ($DemoProject -and (Run-Program "report" $Cli @("report", "`"$($DemoProject.FullName)`"", "-o", "`"$Pdf`"")) -eq 0 -and
            (Test-Path $Pdf) -and ([System.Text.Encoding]::ASCII.GetString([System.IO.File]::ReadAllBytes($Pdf), 0, 5) -eq "%PDF-")) {
        Pass "sialign report -o report.pdf in $Seconds s"
    } else { Fail "sialign report -o report.pdf"; Log "report" | Write-Host }
} else { Fail "sialign demo"; Log "demo" | Write-Host }

$Examples = Join-Path $Dist "_internal\resources\examples"
$Src = Get-ChildItem $Examples -Filter *.en.srt | Select-Object -First 1
$Tgt = Get-ChildItem $Examples -Filter *.ja.srt | Where-Object { $_.Name -notmatch "ref" } | Select-Object -First 1
$Out = Join-Path $Work "align.tsv"
if ($Src -and $Tgt -and (Run-Program "align" $Cli @("align", "`"$($Src.FullName)`"", "`"$($Tgt.FullName)`"", "-o", "`"$Out`"")) -eq 0) {
    $msg = Check-Tsv $Out
    if ($null -eq $msg) { Pass "sialign align in $Seconds s: TSV checked" } else { Fail "sialign align TSV: $msg" }
    if ((Log "align") -match "(?m)^embedder: use-multilingual") { Pass "sialign align en->ja used the built-in multilingual encoder" } else { Fail "sialign align en->ja did not use use-multilingual" }
} else { Fail "sialign align on the example talk"; Log "align" | Write-Host }

if ($Variant -eq "lean" -and $Src -and $Tgt) {
    $Model = Join-Path $Work "user-model"
    New-Item -ItemType Directory -Path $Model | Out-Null
    Set-Content -Path (Join-Path $Model "modules.json") -Value "[]"
    $rc = Run-Program "align_lean_model" $Cli @("align", "`"$($Src.FullName)`"", "`"$($Tgt.FullName)`"", "--model", "`"$Model`"", "-o", "`"$(Join-Path $Work 'lean.tsv')`"")
    $l = Log "align_lean_model"
    if ($rc -ne 0 -and $l -match "lean build.*full build" -and $l -notmatch "Traceback") { Pass "lean build refuses a user model with a message naming the full build" } else { Fail "lean build: no clear message for a user model" }
}

Write-Host ""
Write-Host "Bundle size: $Size ($Dist)"
Write-Host "sialign-gui --smoke-test: $GuiS s"
Remove-Item -Recurse -Force $Work -ErrorAction SilentlyContinue
if ($script:Failures -eq 0) { Write-Host "SMOKE TEST PASSED"; exit 0 }
Write-Host "SMOKE TEST FAILED: $($script:Failures) check(s)"
exit 1
