# Sourced by deploy/image/*.sh and deploy/compose/try-offline.sh: the podman command and run flags
# this host needs, in the arrays `podman` and `ulimits`.

# crun, Debian's default runtime, refuses a host whose cgroups are v1 or hybrid ("cgroups in
# hybrid mode not supported"); runc runs there.
podman=(podman)
if [ "$(stat -fc %T /sys/fs/cgroup)" != cgroup2fs ]; then
  command -v runc >/dev/null || { echo "$(basename "$0"): cgroups v1 here: apt-get install runc" >&2; exit 1; }
  podman=(podman --runtime runc)
fi
# Containers get limits no higher than this process may set: podman asks for 1048576 open files
# and 4194304 processes by default, which a root without CAP_SYS_RESOURCE (a sandbox, a VM with
# a low hard limit) cannot grant, and podman itself holds its own process limit at 32768.
podman_nproc=$(ulimit -Hu)
case "$podman_nproc" in unlimited) podman_nproc=32768 ;; *) [ "$podman_nproc" -le 32768 ] || podman_nproc=32768 ;; esac
podman_nofile=$(ulimit -Hn)
case "$podman_nofile" in unlimited) podman_nofile=1048576 ;; esac
ulimits=(--ulimit "nofile=$podman_nofile:$podman_nofile" --ulimit "nproc=$podman_nproc:$podman_nproc")
