# SPDX-License-Identifier: GPL-3.0-or-later
# The README's two commands:
#   make run     install what is missing, build, start stackpulse (ARGS=file.spool)
#   make check   install what is missing, build, run every test (under Xvfb)
BUILD ?= build
XVFB = xvfb-run -a -s "-screen 0 1280x1024x24"

.PHONY: all deps build run check clean

all: build

deps:
	@scripts/install-deps

$(BUILD)/build.ninja:
	meson setup $(BUILD)

build: deps $(BUILD)/build.ninja
	meson compile -C $(BUILD)

run: build
	$(BUILD)/app/stackpulse $(ARGS)

# Under Xvfb there is always a display, so a GUI test may not skip itself.
check: build
	$(XVFB) env SP_REQUIRE_DISPLAY=1 meson test -C $(BUILD) --print-errorlogs

clean:
	rm -rf $(BUILD)
