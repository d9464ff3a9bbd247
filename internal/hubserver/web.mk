# The hub's web page is tested in a real Chromium: Debian's chromium is
# installed when no Chromium is found (with sudo unless root), and its
# path reaches the tests in ASKUSER_CHROMIUM; axe-core, which they run in
# it for WCAG's rules, is installed by npm and found by ASKUSER_AXE. Included by the top
# Makefile; the tests run in gotest, after this.
.PHONY: web-chromium web-axe
WEB_DIR := internal/hubserver

find_chromium = $(firstword $(foreach b,chromium chromium-browser,$(shell command -v $(b) 2>/dev/null)))

# Recursive, so that gotest's recipe sees a Chromium installed just
# before it.
ASKUSER_CHROMIUM ?= $(find_chromium)
export ASKUSER_CHROMIUM

gotest: web-chromium web-axe
TEST_DEPS += web-chromium web-axe

# axe-core, the accessibility checker the page's tests run in Chromium,
# from the committed lockfile; npm ci only when the lockfile changed.
export ASKUSER_AXE := $(CURDIR)/$(WEB_DIR)/node_modules/axe-core/axe.min.js
web-axe: $(WEB_DIR)/node_modules/.package-lock.json

$(WEB_DIR)/node_modules/.package-lock.json: $(WEB_DIR)/package-lock.json $(WEB_DIR)/package.json
	cd $(WEB_DIR) && npm ci --no-audit --no-fund
	@touch $@

# After tmux's install, if there is one: apt takes one install at a time.
web-chromium: | pi-tmux
web-chromium:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi; \
	  echo "installing Debian's chromium for the web page's tests"; \
	  $$sudo apt-get update && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y chromium; }
