# Installs bowties the way Swift command-line tools install: the shipped binary (fully
# static, position-independent: scripts/build-release), stripped; a man page and shell
# completions that ArgumentParser generates from the commands' own help. (The README's
# start is scripts/start and scripts/test: a new machine may have no make yet.)
#
#   make install [PREFIX=~/.local]    build, then install under PREFIX (default /usr/local)
#   make uninstall [PREFIX=…]         remove exactly what install put there
#   make deb                          a Debian package, build/bowties_VERSION_ARCH.deb
#   make clean                        remove build/ (not the Swift build folders)
#
# BINARY=PATH takes a bowties already built by scripts/build-release instead of building;
# bowties-postgresql is taken from beside it.
# DESTDIR is honoured, as packagers expect. The version is the one `bowties --version`
# prints (Sources/BowtiesCLI/Version.swift): the package takes it from the binary.

PREFIX ?= /usr/local
BINARY ?=
DESTDIR ?=
# The package's maintainer: by default the author of the repository's first commit.
MAINTAINER ?= $(shell git log --reverse --format='%an <%ae>' 2>/dev/null | head -n 1)

BINDIR = $(DESTDIR)$(PREFIX)/bin
# Where bowties finds bowties-postgresql, relative to itself: ../libexec/bowties.
LIBEXECDIR = $(DESTDIR)$(PREFIX)/libexec/bowties
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

INSTALLED = $(BINDIR)/bowties $(LIBEXECDIR)/bowties-postgresql $(MANDIR)/bowties.1 $(BASHDIR)/bowties $(ZSHDIR)/_bowties \
	$(FISHDIR)/bowties.fish

STAGE = build/stage

.PHONY: all install uninstall deb clean stage

all: stage

# Everything install copies, built and generated into build/stage.
stage:
	@mkdir -p $(STAGE)
	@[ -n "$(BINARY)" ] || scripts/install-packages build release
	binary="$(BINARY)"; [ -n "$$binary" ] || binary="$$(scripts/build-release --check)"; \
		cp "$$binary" $(STAGE)/bowties && cp "$$(dirname "$$binary")/bowties-postgresql" $(STAGE)/
	strip $(STAGE)/bowties $(STAGE)/bowties-postgresql
	swift build --product generate-manual >/dev/null
	"$$(swift build --show-bin-path)/generate-manual" $(STAGE)/bowties \
		--date "$$(date -u -d @$$(git log -1 --format=%ct 2>/dev/null || date +%s) +%F)" \
		--output-directory $(STAGE)
	$(STAGE)/bowties --generate-completion-script bash > $(STAGE)/bowties.bash
	$(STAGE)/bowties --generate-completion-script zsh > $(STAGE)/_bowties
	$(STAGE)/bowties --generate-completion-script fish > $(STAGE)/bowties.fish

install: stage
	install -d $(BINDIR) $(LIBEXECDIR) $(MANDIR) $(BASHDIR) $(ZSHDIR) $(FISHDIR)
	install -m 755 $(STAGE)/bowties $(BINDIR)/bowties
	install -m 755 $(STAGE)/bowties-postgresql $(LIBEXECDIR)/bowties-postgresql
	install -m 644 $(STAGE)/bowties.1 $(MANDIR)/bowties.1
	install -m 644 $(STAGE)/bowties.bash $(BASHDIR)/bowties
	install -m 644 $(STAGE)/_bowties $(ZSHDIR)/_bowties
	install -m 644 $(STAGE)/bowties.fish $(FISHDIR)/bowties.fish

uninstall:
	rm -f $(INSTALLED)
	-rmdir $(LIBEXECDIR) 2>/dev/null

# The package holds what `make install PREFIX=/usr` installs. It depends on libc6 alone,
# and only for name resolution: glibc's static build still loads its NSS modules to
# read /etc/hosts and DNS settings when a PostgreSQL store is named by host.
deb: stage
	@version="$$($(STAGE)/bowties --version)"; \
	arch="$$(dpkg --print-architecture)"; \
	root="build/deb/bowties_$${version}_$${arch}"; \
	rm -rf "$$root" && \
	$(MAKE) --no-print-directory install PREFIX=/usr DESTDIR="$$PWD/$$root" && \
	mkdir -p "$$root/DEBIAN" && \
	printf '%s\n' \
		"Package: bowties" \
		"Version: $$version" \
		"Architecture: $$arch" \
		"Maintainer: $(MAINTAINER)" \
		"Depends: libc6" \
		"Section: utils" \
		"Priority: optional" \
		"Installed-Size: $$(du -sk "$$root/usr" | cut -f1)" \
		"Description: bow-tie inventory for the command line" \
		" Keeps your bow ties: a photo, a rating, how often and when each was" \
		" worn, favorites, prices; reports for cron. SQLite by default, or a" \
		" PostgreSQL store shared by several machines." \
		> "$$root/DEBIAN/control" && \
	dpkg-deb --root-owner-group -Zgzip --build "$$root" "build/bowties_$${version}_$${arch}.deb" && \
	echo "build/bowties_$${version}_$${arch}.deb"

clean:
	rm -rf build
