#!/bin/sh
# test-fresh.sh: the README's two commands on a machine that has nothing.
# Builds a Debian 12 minbase root with debootstrap from the Debian mirror this
# machine is configured with, trusts this machine's CA certificates (a proxy
# may re-sign HTTPS), copies a clone of this repository in, and runs the
# README's two commands inside it (chroot) with a clean environment.
# The clone is of HEAD: commit first.
#
#   scripts/test-fresh.sh            build a root in a temporary folder, test, remove it
#   FRESH_ROOT=/var/tmp/r scripts/test-fresh.sh   keep the root there (reused if it exists)
#
# Needs root (debootstrap, mount, chroot). Prints the last lines of each
# command's output and exits non-zero if either fails.
set -eu
say() { printf 'test-fresh: %s\n' "$*" >&2; }
[ "$(id -u)" = 0 ] || { say "needs root (debootstrap, mount, chroot)"; exit 1; }
repo=$(cd "$(dirname "$0")/.." && pwd)

# The README's two commands, read from the README itself: the lines of its
# first code block that start with "sh scripts/setup.sh".
cmds=$(sed -n '/^```sh$/,/^```$/p' "$repo/README.md" | grep '^sh scripts/setup.sh' | sed 's/ *#.*$//')
[ "$(printf '%s\n' "$cmds" | grep -c .)" = 2 ] || { say "README's first code block should hold two setup commands, found: $cmds"; exit 1; }

mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
[ -n "$mirror" ] || mirror=$(awk '$1 == "deb" && $3 == "bookworm" {print $2; exit}' /etc/apt/sources.list 2>/dev/null)
[ -n "$mirror" ] || { say "no Debian mirror configured on this machine"; exit 1; }

if ! command -v debootstrap >/dev/null 2>&1; then
	say "installing debootstrap"
	DEBIAN_FRONTEND=noninteractive apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
fi

keep=yes
root=${FRESH_ROOT:-}
if [ -z "$root" ]; then
	root=$(mktemp -d /var/tmp/benchbook-fresh.XXXXXX)
	# mktemp makes it 0700; a machine's / is 0755. As 0700, a user other than
	# root in the chroot can exec bash but ld.so cannot open its libraries
	# ("libtinfo.so.6: Permission denied"), which failed the Binder tests.
	chmod 755 "$root"
	keep=no
fi
mounted=""
cleanup() {
	for m in $mounted; do umount -l "$root$m" 2>/dev/null || true; done
	[ "$keep" = yes ] || rm -rf "$root"
}
trap cleanup EXIT INT TERM

if [ ! -x "$root/usr/bin/apt-get" ]; then
	say "debootstrap --variant=minbase bookworm from $mirror into $root"
	debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
		{ tail -20 "$root.debootstrap.log" >&2; exit 1; }
fi
# This machine's extra CA certificates, for a proxy that re-signs HTTPS.
mkdir -p "$root/usr/local/share/ca-certificates" "$root/etc/ssl/certs"
cp -a /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/" 2>/dev/null || true
[ -f /etc/ssl/certs/ca-certificates.crt ] && cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
# Every machine has an /etc/hosts naming localhost; debootstrap's minbase
# root has none (a container runtime writes one), and tests dial localhost.
[ -s "$root/etc/hosts" ] || printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$root/etc/hosts"
for m in /proc /sys /dev /dev/pts /dev/shm; do
	mkdir -p "$root$m"
	case $m in
	/proc) mount -t proc proc "$root$m" ;;
	*) mount --bind "$m" "$root$m" ;;
	esac
	mounted="$m $mounted"
done

# A clone of the committed HEAD, as CI gets: the working tree's uncommitted
# changes are not what a new user clones.
rm -rf "$root/root/benchbook"
git clone --quiet --no-hardlinks "$repo" "$root/root/benchbook"
say "cloned $(git -C "$repo" rev-parse --short HEAD) into $root/root/benchbook"

status=0
i=0
printf '%s\n' "$cmds" | while IFS= read -r cmd; do
	i=$((i + 1))
	say "command $i: $cmd"
	start=$(date +%s)
	if chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		LANG=C.UTF-8 ${GOPROXY:+GOPROXY=$GOPROXY} /bin/sh -c "cd /root/benchbook && $cmd" >"$root/cmd$i.log" 2>&1; then
		say "command $i passed in $(($(date +%s) - start)) s; its last lines:"
		tail -5 "$root/cmd$i.log" >&2
	else
		say "command $i FAILED after $(($(date +%s) - start)) s; its last lines:"
		tail -40 "$root/cmd$i.log" >&2
		exit 1
	fi
done || status=1
exit $status
