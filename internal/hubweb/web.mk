# The hub's web page is tested in a real Chromium: Debian's chromium is
# installed when no Chromium is found (with sudo unless root), and its
# path reaches the tests in ASKUSER_CHROMIUM. Included by the top
# Makefile; the tests run in gotest, after this.
.PHONY: web-chromium

find_chromium = $(firstword $(foreach b,chromium chromium-browser,$(shell command -v $(b) 2>/dev/null)))

# Recursive, so that gotest's recipe sees a Chromium installed just
# before it.
ASKUSER_CHROMIUM ?= $(find_chromium)
export ASKUSER_CHROMIUM

gotest: web-chromium
TEST_DEPS += web-chromium

# After tmux's install, if there is one: apt takes one install at a time.
web-chromium: | pi-tmux
web-chromium:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then sudo=; else sudo=sudo; fi; \
	  echo "installing Debian's chromium for the web page's tests"; \
	  $$sudo apt-get update && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y chromium; }
