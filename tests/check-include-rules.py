#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the include rules of docs/ARCHITECTURE.md, as a TAP test.

codec/ uses libc only; recorder/ adds libelf/libdw; data/ adds GLib and
libelf/libdw but no GTK; ui/ sees data/ and GTK but never codec/ or
recorder/, and neither ui/ nor app/ takes the profile's lock or reads
what the analysis worker grows. A project header ("...") belongs to the
folder that holds it, and *-private.h headers are for their own folder
only."""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.getcwd()
LAYERS = ["codec", "recorder", "data", "ui", "app"]

# Which project folders each layer may include from.
MAY_INCLUDE = {
    "codec": {"codec"},
    "recorder": {"recorder", "codec"},
    "data": {"data", "codec"},
    "ui": {"ui", "data"},
    "app": {"app", "ui", "data", "codec", "recorder"},
}
# System headers a layer may not use (by prefix of the <...> name).
FORBIDDEN_SYSTEM = {
    "codec": ["glib", "gio/", "gtk/", "gdk/", "gsk/", "cairo", "libelf", "gelf", "elfutils/", "dwarf", "libdw"],
    "recorder": ["glib", "gio/", "gtk/", "gdk/", "gsk/", "cairo"],
    "data": ["gtk/", "gdk/", "gsk/", "cairo", "graphene", "linux/perf_event"],
    "ui": ["libelf", "gelf", "elfutils/", "dwarf", "libdw", "linux/perf_event"],
    "app": [],
}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
# Headers reach ui/ through data/ (a profile hands out codec types), so ui/
# is also checked for calling the codec or perf itself. Nor does ui/ or
# app/ take the profile's lock or read what a worker grows (its function
# count, its reader, its threads, its off-CPU companion and states): they
# get immutable results from the analysis (data/sp-analysis.h), and search
# below a tree's n_functions.
WORKER_ONLY = r'sp_profile_(?:lock_reading|unlock_reading|get_n_functions|get_reader|get_n_threads|get_thread|get_thread_name|get_thread_states|has_off_cpu|get_off_cpu_damage)'
FORBIDDEN_CALLS = {
    "ui": re.compile(r'\b(sp_spool_[a-z_]+|sp_module_table_[a-z_]+|perf_event_open|' + WORKER_ONLY + r')\s*\('),
    # The window's files; the report (sp-report.c) reads a profile alone.
    "app/sp-window": re.compile(r'\b(' + WORKER_ONLY + r')\s*\('),
}


def project_headers():
    """Maps a header's file name to the layer folder that holds it."""
    owners = {}
    for layer in LAYERS:
        for dirpath, _, files in os.walk(os.path.join(ROOT, layer)):
            for name in files:
                if name.endswith(".h"):
                    owners[name] = layer
    return owners


def check_file(path, layer, owners):
    problems = []
    with open(path, encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, 1):
            calls = FORBIDDEN_CALLS.get(layer)
            if os.path.basename(path).startswith("sp-window"):
                calls = FORBIDDEN_CALLS["app/sp-window"]
            if calls is not None and not line.lstrip().startswith(("*", "/*", "//")):
                for call in calls.findall(line):
                    problems.append(f"{os.path.relpath(path, ROOT)}:{number}: {layer}/ calls {call}()")
            match = INCLUDE.match(line)
            if not match:
                continue
            kind, name = match.groups()
            where = f"{os.path.relpath(path, ROOT)}:{number}"
            base = os.path.basename(name)
            if kind == '"' or base in owners:
                owner = owners.get(base)
                if owner is None:
                    continue  # generated or local to the file's folder
                if owner not in MAY_INCLUDE[layer]:
                    problems.append(f"{where}: {layer}/ includes {owner}/{base}")
                elif base.endswith("-private.h") and owner != layer:
                    problems.append(f"{where}: {base} is private to {owner}/")
            else:
                for prefix in FORBIDDEN_SYSTEM[layer]:
                    if name.startswith(prefix):
                        problems.append(f"{where}: {layer}/ may not include <{name}>")
    return problems


def main():
    owners = project_headers()
    results = []
    for layer in LAYERS:
        top = os.path.join(ROOT, layer)
        if not os.path.isdir(top):
            continue
        for dirpath, _, files in sorted(os.walk(top)):
            for name in sorted(files):
                if name.endswith((".c", ".h")):
                    path = os.path.join(dirpath, name)
                    results.append((os.path.relpath(path, ROOT), check_file(path, layer, owners)))
    if not results:
        print("1..0 # SKIP no sources")
        return 1
    print(f"1..{len(results)}")
    failed = 0
    for number, (name, problems) in enumerate(results, 1):
        if problems:
            failed += 1
            print(f"not ok {number} {name}")
            for problem in problems:
                print(f"# {problem}")
        else:
            print(f"ok {number} {name}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
