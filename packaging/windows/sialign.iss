; Inno Setup script: installer for the PyInstaller folder built on Windows.
;   iscc /DAppVersion=0.1.0 /DBundleDir=..\dist\sialign /DOutputDir=..\dist packaging\windows\sialign.iss
; (paths relative to this file; the workflow .github/workflows/bundle.yml runs it).
; Installs per user or for all users (the installer asks), adds a Start-menu
; entry for SI Aligner and for the command line, associates .sialign project
; files with sialign-gui.exe, optionally puts sialign.exe on PATH, and
; registers an uninstaller that removes all of it.

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif
#ifndef BundleDir
  #define BundleDir "..\dist\sialign"
#endif
#ifndef OutputDir
  #define OutputDir "..\dist"
#endif
#ifndef Variant
  #define Variant ""
#endif

[Setup]
AppId={{6F1E9B52-3C1D-4F0B-9E47-51A1A9C2D7E3}
AppName=SI Aligner
AppVersion={#AppVersion}
AppPublisher=SI Aligner
DefaultDirName={autopf}\SI Aligner
DefaultGroupName=SI Aligner
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
OutputDir={#OutputDir}
OutputBaseFilename=SI_Aligner-{#AppVersion}{#Variant}-windows-x64-setup
SetupIconFile=..\..\resources\icons\sialign.ico
UninstallDisplayIcon={app}\sialign-gui.exe
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
ChangesAssociations=yes
ChangesEnvironment=yes

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked
Name: "addtopath"; Description: "Add the command-line program sialign to PATH"; Flags: unchecked

[Files]
Source: "{#BundleDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{group}\SI Aligner"; Filename: "{app}\sialign-gui.exe"
Name: "{group}\SI Aligner command line"; Filename: "{cmd}"; Parameters: "/k ""{app}\sialign.exe"" --help"; WorkingDir: "{userdocs}"
Name: "{group}\Uninstall SI Aligner"; Filename: "{uninstallexe}"
Name: "{autodesktop}\SI Aligner"; Filename: "{app}\sialign-gui.exe"; Tasks: desktopicon

[Registry]
; The .sialign project type: double-click opens it in SI Aligner. HKA is
; HKCU for a per-user install and HKLM for an all-users one.
Root: HKA; Subkey: "Software\Classes\.sialign"; ValueType: string; ValueName: ""; ValueData: "SIAligner.Project"; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.sialign"; ValueType: string; ValueName: "Content Type"; ValueData: "application/x-sialign-project"; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\SIAligner.Project"; ValueType: string; ValueName: ""; ValueData: "SI Aligner project"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\SIAligner.Project\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: "{app}\sialign-gui.exe,0"
Root: HKA; Subkey: "Software\Classes\SIAligner.Project\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\sialign-gui.exe"" ""%1"""
Root: HKA; Subkey: "Software\Classes\Applications\sialign-gui.exe\SupportedTypes"; ValueType: string; ValueName: ".sialign"; ValueData: ""; Flags: uninsdeletekey

[Run]
Filename: "{app}\sialign-gui.exe"; Description: "{cm:LaunchProgram,SI Aligner}"; Flags: nowait postinstall skipifsilent

[Code]
const
  EnvKey = 'Environment';

function PathHasDir(Dir: string): Boolean;
var
  Current: string;
begin
  Result := False;
  if RegQueryStringValue(HKEY_CURRENT_USER, EnvKey, 'Path', Current) then
    Result := Pos(';' + Uppercase(Dir) + ';', ';' + Uppercase(Current) + ';') > 0;
end;

procedure CurStepChanged(CurStep: TSetupStep);
var
  Current: string;
begin
  if (CurStep = ssPostInstall) and WizardIsTaskSelected('addtopath') and not PathHasDir(ExpandConstant('{app}')) then
  begin
    if not RegQueryStringValue(HKEY_CURRENT_USER, EnvKey, 'Path', Current) then
      Current := '';
    if (Current <> '') and (Copy(Current, Length(Current), 1) <> ';') then
      Current := Current + ';';
    RegWriteExpandStringValue(HKEY_CURRENT_USER, EnvKey, 'Path', Current + ExpandConstant('{app}'));
  end;
end;

procedure CurUninstallStepChanged(CurUninstallStep: TUninstallStep);
var
  Current, Dir: string;
  P: Integer;
begin
  if CurUninstallStep <> usPostUninstall then
    exit;
  Dir := ExpandConstant('{app}');
  if RegQueryStringValue(HKEY_CURRENT_USER, EnvKey, 'Path', Current) then
  begin
    P := Pos(';' + Uppercase(Dir), ';' + Uppercase(Current));
    if P > 0 then
    begin
      Delete(Current, P, Length(Dir) + 1);
      RegWriteExpandStringValue(HKEY_CURRENT_USER, EnvKey, 'Path', Current);
    end;
  end;
end;
