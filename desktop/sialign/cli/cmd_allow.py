"""``sialign allow`` — the folders a project may name files in, besides its own.

A project names its transcripts and recordings; SI Aligner reads them only when
they lie in the project's own folder, or in a folder you allowed. Files you
name on the command line or choose in the app are allowed as you name them, so
this is needed for a project received from elsewhere. With no folder, list the
allowed folders; --remove takes folders off the list. SIALIGN_ALLOWED_FOLDERS
(folders separated by the system's path separator) allows folders for one run.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

HELP = "allow a folder whose files projects may name (or list them, or --remove)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folders", nargs="*", metavar="FOLDER", help="folders to allow (none: list the allowed folders)")
    parser.add_argument("--remove", action="store_true", help="take the FOLDERs off the list instead")


def run(args: argparse.Namespace) -> int:
    from sialign.cli.usage import UsageError
    from sialign.core.stored_files import ENV_ALLOWED_FOLDERS, allow, allowed_folders, allowed_folders_file, disallow

    if args.remove:
        if not args.folders:
            raise UsageError("name the folders to remove (sialign allow --remove FOLDER)")
        gone = set(disallow(args.folders))
        for folder in args.folders:
            real = Path(os.path.realpath(Path(folder).expanduser()))
            print(f"no longer allowed: {real}" if real in gone else f"not on the list: {folder}")
        return 0
    if not args.folders:
        folders = allowed_folders()
        print(f"Projects may name files in their own folder and in these ({allowed_folders_file()}"
              f"{', and $' + ENV_ALLOWED_FOLDERS if os.environ.get(ENV_ALLOWED_FOLDERS) else ''}):")
        for folder in folders:
            print(f"  {folder}")
        if not folders:
            print("  (none yet)")
        return 0
    for folder in args.folders:
        if not Path(folder).expanduser().is_dir():
            raise UsageError(f"{folder}: not a folder — name the folder that holds the files (sialign allow FOLDER)")
    added = allow(args.folders)
    for folder in added:
        print(f"allowed: {folder}")
    if not added:
        print("already allowed")
    return 0
