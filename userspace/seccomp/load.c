/* SPDX-License-Identifier: GPL-2.0 */
/* Running a command under a compiled program; see load.h. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "load.h"
#include "supervise.h"

#define SHIM_NAME "libpreload-seccomp.so"
/* Nested "#!" interpreters the kernel follows (BINPRM_MAX_RECURSION). */
#define MAX_SCRIPT_DEPTH 4

extern char **environ;

__attribute__((format(printf, 3, 4)))
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int write_full(int fd, const void *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		buf = (const char *)buf + n;
		len -= (size_t)n;
	}
	return 0;
}

int ujs_program_write(int fd, const struct sock_filter *insns, size_t len,
		      uint32_t audit_arch, uint32_t flags, char *err,
		      size_t errlen)
{
	struct ujs_prog_header h = {
		.version = UJS_PROG_VERSION,
		.audit_arch = audit_arch,
		.count = (uint32_t)len,
		.flags = flags,
	};

	if (len == 0 || len > UJS_PROG_MAX_INSNS)
		return fail(err, errlen, "%zu instructions: a program has 1..%d",
			    len, UJS_PROG_MAX_INSNS);
	memcpy(h.magic, UJS_PROG_MAGIC, sizeof(h.magic));
	if (write_full(fd, &h, sizeof(h)) ||
	    write_full(fd, insns, len * sizeof(*insns)))
		return fail(err, errlen, "write: %s", strerror(errno));
	return 0;
}

/* ---- What kind of program ---- */

static uint16_t native_machine(void)
{
#if defined(__x86_64__)
	return EM_X86_64;
#elif defined(__i386__)
	return EM_386;
#elif defined(__aarch64__)
	return EM_AARCH64;
#elif defined(__arm__)
	return EM_ARM;
#elif defined(__mips__)
	return EM_MIPS;
#elif defined(__riscv)
	return EM_RISCV;
#else
#error "ujail-seccomp: no ELF machine for this architecture"
#endif
}

static unsigned char native_class(void)
{
	return sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32;
}

static unsigned char native_data(void)
{
	return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB;
}

/* The ELF header fields we need, from either class. */
struct elf_info {
	unsigned char class, data;
	uint16_t machine;
	uint64_t phoff;
	uint16_t phentsize, phnum;
};

static int read_at(int fd, void *buf, size_t len, off_t off)
{
	ssize_t n = pread(fd, buf, len, off);

	return n == (ssize_t)len ? 0 : -1;
}

static int elf_header(int fd, const char *path, struct elf_info *info,
		      char *err, size_t errlen)
{
	union {
		Elf32_Ehdr e32;
		Elf64_Ehdr e64;
	} h;

	if (read_at(fd, &h, sizeof(h.e32), 0) ||
	    memcmp(h.e32.e_ident, ELFMAG, SELFMAG) != 0)
		return fail(err, errlen, "%s: not an ELF program nor a #! script", path);
	info->class = h.e32.e_ident[EI_CLASS];
	info->data = h.e32.e_ident[EI_DATA];
	if (info->class == ELFCLASS32) {
		info->machine = h.e32.e_machine;
		info->phoff = h.e32.e_phoff;
		info->phentsize = h.e32.e_phentsize;
		info->phnum = h.e32.e_phnum;
		return info->phentsize == sizeof(Elf32_Phdr) ? 0 :
		       fail(err, errlen, "%s: bad ELF program header size", path);
	}
	if (info->class != ELFCLASS64 || read_at(fd, &h, sizeof(h.e64), 0))
		return fail(err, errlen, "%s: bad ELF header", path);
	info->machine = h.e64.e_machine;
	info->phoff = h.e64.e_phoff;
	info->phentsize = h.e64.e_phentsize;
	info->phnum = h.e64.e_phnum;
	return info->phentsize == sizeof(Elf64_Phdr) ? 0 :
	       fail(err, errlen, "%s: bad ELF program header size", path);
}

struct segment {
	uint32_t type;
	uint64_t offset, vaddr, filesz;
};

static int elf_segment(int fd, const struct elf_info *info, uint16_t i,
		       struct segment *seg)
{
	off_t at = (off_t)(info->phoff + (uint64_t)i * info->phentsize);
	union {
		Elf32_Phdr p32;
		Elf64_Phdr p64;
	} ph;

	if (read_at(fd, &ph, info->phentsize, at))
		return -1;
	if (info->class == ELFCLASS32) {
		*seg = (struct segment){ ph.p32.p_type, ph.p32.p_offset,
					 ph.p32.p_vaddr, ph.p32.p_filesz };
	} else {
		*seg = (struct segment){ ph.p64.p_type, ph.p64.p_offset,
					 ph.p64.p_vaddr, ph.p64.p_filesz };
	}
	return 0;
}

/* The first segment of @type; 1 if none, -1 on a read error. */
static int find_segment(int fd, const struct elf_info *info, uint32_t type,
			struct segment *seg)
{
	for (uint16_t i = 0; i < info->phnum; i++) {
		if (elf_segment(fd, info, i, seg))
			return -1;
		if (seg->type == type)
			return 0;
	}
	return 1;
}

/* PT_INTERP into @interp ("" if none). */
static int elf_interp(int fd, const char *path, const struct elf_info *info,
		      char *interp, size_t len, char *err, size_t errlen)
{
	struct segment seg;
	int found = find_segment(fd, info, PT_INTERP, &seg);

	interp[0] = '\0';
	if (found < 0)
		return fail(err, errlen, "%s: truncated ELF program headers", path);
	if (found > 0)
		return 0;
	if (seg.filesz == 0 || seg.filesz >= len ||
	    read_at(fd, interp, seg.filesz, (off_t)seg.offset))
		return fail(err, errlen, "%s: bad PT_INTERP", path);
	interp[seg.filesz] = '\0';
	return 0;
}

/* File offset of the virtual address @vaddr, through the PT_LOAD segments. */
static int vaddr_offset(int fd, const struct elf_info *info, uint64_t vaddr,
			uint64_t *offset)
{
	struct segment seg;

	for (uint16_t i = 0; i < info->phnum; i++) {
		if (elf_segment(fd, info, i, &seg))
			return -1;
		if (seg.type == PT_LOAD && vaddr >= seg.vaddr &&
		    vaddr < seg.vaddr + seg.filesz) {
			*offset = vaddr - seg.vaddr + seg.offset;
			return 0;
		}
	}
	return -1;
}

/* DT_STRTAB and DT_STRSZ of a native-class program. */
static int dynamic_strtab(int fd, const struct elf_info *info, uint64_t *off,
			  uint64_t *size)
{
	ElfW(Dyn) dyn;
	struct segment seg;
	uint64_t addr = 0;

	*size = 0;
	if (find_segment(fd, info, PT_DYNAMIC, &seg))
		return -1;
	for (uint64_t at = 0; at + sizeof(dyn) <= seg.filesz; at += sizeof(dyn)) {
		if (read_at(fd, &dyn, sizeof(dyn), (off_t)(seg.offset + at)) ||
		    dyn.d_tag == DT_NULL)
			break;
		if (dyn.d_tag == DT_STRTAB)
			addr = dyn.d_un.d_ptr;
		else if (dyn.d_tag == DT_STRSZ)
			*size = dyn.d_un.d_val;
	}
	if (!addr || !*size || *size > (64U << 20))
		return -1;
	return vaddr_offset(fd, info, addr, off);
}

/*
 * The shim takes over __libc_start_main(): a dynamic program that does not
 * import it (Go, a custom _start) would run unfiltered.
 */
static bool imports_libc_start_main(int fd, const struct elf_info *info)
{
	static const char name[] = "\0__libc_start_main";	/* and its NUL */
	uint64_t off, size;
	bool found = false;
	char *strtab;

	if (dynamic_strtab(fd, info, &off, &size))
		return false;
	strtab = malloc(size);
	if (strtab && read_at(fd, strtab, size, (off_t)off) == 0)
		found = memmem(strtab, size, name, sizeof(name)) != NULL;
	free(strtab);
	return found;
}

static int elf_link_kind(int fd, const char *path, enum ujs_link *kind,
			 char *err, size_t errlen)
{
	struct elf_info info = { 0 };
	char interp[PATH_MAX];
	const char *base;

	if (elf_header(fd, path, &info, err, errlen) ||
	    elf_interp(fd, path, &info, interp, sizeof(interp), err, errlen))
		return -1;
	if (!interp[0]) {
		*kind = UJS_LINK_STATIC;
		return 0;
	}
	/* A shim of another class or machine would be skipped by ld.so, and
	 * the program would run unfiltered. */
	if (info.class != native_class() || info.data != native_data() ||
	    info.machine != native_machine())
		return fail(err, errlen,
			    "%s: dynamic program for another ELF class or machine (%u); the preload shim cannot load in it",
			    path, info.machine);
	if (!imports_libc_start_main(fd, &info))
		return fail(err, errlen,
			    "%s: dynamic program that does not start through __libc_start_main; the preload shim cannot filter it",
			    path);
	base = strrchr(interp, '/');
	base = base ? base + 1 : interp;
	*kind = strncmp(base, "ld-musl-", 8) == 0 ? UJS_LINK_MUSL : UJS_LINK_GLIBC;
	return 0;
}

/* The interpreter of a "#!" script in @buf, into @out. */
static int script_interpreter(const char *buf, size_t len, const char *path,
			      char *out, size_t outlen, char *err, size_t errlen)
{
	size_t start = 2, end;

	while (start < len && (buf[start] == ' ' || buf[start] == '\t'))
		start++;
	end = start;
	while (end < len && buf[end] != ' ' && buf[end] != '\t' && buf[end] != '\n')
		end++;
	if (end == start || end == len || end - start >= outlen)
		return fail(err, errlen, "%s: bad #! line", path);
	memcpy(out, buf + start, end - start);
	out[end - start] = '\0';
	return 0;
}

static int link_kind_at(const char *path, int depth, enum ujs_link *kind,
			char *err, size_t errlen)
{
	char buf[256], interp[PATH_MAX];
	ssize_t n;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(err, errlen, "%s: %s", path, strerror(errno));
	n = pread(fd, buf, sizeof(buf), 0);
	if (n >= 2 && buf[0] == '#' && buf[1] == '!') {
		close(fd);
		if (depth >= MAX_SCRIPT_DEPTH)
			return fail(err, errlen, "%s: too many nested #! interpreters", path);
		if (script_interpreter(buf, (size_t)n, path, interp, sizeof(interp), err, errlen))
			return -1;
		return link_kind_at(interp, depth + 1, kind, err, errlen);
	}
	ret = elf_link_kind(fd, path, kind, err, errlen);
	close(fd);
	return ret;
}

int ujs_link_kind(const char *path, enum ujs_link *kind, char *err,
		  size_t errlen)
{
	return link_kind_at(path, 0, kind, err, errlen);
}

static bool is_executable_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int ujs_resolve_command(const char *cmd, char *out, size_t outlen, char *err,
			size_t errlen)
{
	const char *path = getenv("PATH");

	if (!*cmd)
		return fail(err, errlen, "empty command name");
	if (strchr(cmd, '/')) {
		if (!is_executable_file(cmd))
			return fail(err, errlen, "%s: %s", cmd,
				    access(cmd, F_OK) ? strerror(errno) : "not an executable file");
		snprintf(out, outlen, "%s", cmd);
		return 0;
	}
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *dir = path;; dir += strcspn(dir, ":") + 1) {
		int dirlen = (int)strcspn(dir, ":");

		/* An empty entry is the current directory. */
		if ((size_t)snprintf(out, outlen, "%.*s%s%s", dirlen, dir,
				     dirlen ? "/" : "", cmd) < outlen &&
		    is_executable_file(out))
			return 0;
		if (!dir[dirlen])
			break;
	}
	return fail(err, errlen, "%s: command not found in PATH", cmd);
}

int ujs_choose_mode(const char *requested, enum ujs_mode *mode,
		    const char **why, char *err, size_t errlen)
{
	bool has = ujs_kernel_has_log_errno();

	if (!requested || strcmp(requested, "auto") == 0)
		*mode = has ? UJS_MODE_LOG_ERRNO : UJS_MODE_NOTIFY;
	else if (ujs_mode_parse(requested, mode))
		return fail(err, errlen, "--mode %s: not auto, log-errno, notify or errno-log",
			    requested);
	else if (*mode == UJS_MODE_LOG_ERRNO && !has)
		return fail(err, errlen,
			    "--mode log-errno: this kernel has no log_errno action (SECCOMP_RET_LOG_ERRNO)");
	switch (*mode) {
	case UJS_MODE_LOG_ERRNO:
		*why = "kernel has the log_errno action; denials are logged by the kernel";
		break;
	case UJS_MODE_NOTIFY:
		*why = has ? "requested; denials are logged by ujail-seccomp" :
		       "kernel has no log_errno action; denials are logged by ujail-seccomp";
		break;
	case UJS_MODE_ERRNO_LOG:
		*why = has ? "requested; denials are logged by audit" :
		       "kernel has no log_errno action; denials are logged by audit";
		break;
	}
	return 0;
}

/* ---- Starting the command ---- */

struct launch {
	const struct ujs_run_opts *opts;
	const struct ujs_loaded_program *prog;
	char *const *argv;
	char path[PATH_MAX];
	enum ujs_link link;
	char shim[PATH_MAX];
	int prog_fd;		/* dynamic: the sealed program */
	int sock[2];		/* notify: [0] the runner's, [1] the child's */
	int sigfd;
	bool masked;		/* oldmask to be restored */
	sigset_t oldmask;
};

static int find_shim(struct launch *l, char *err, size_t errlen)
{
	const char *given = l->opts->preload ? l->opts->preload : getenv("UJAIL_PRELOAD");
	const char *from = l->opts->preload ? "--preload" : "UJAIL_PRELOAD";
	char path[PATH_MAX];

	if (!given) {
		const char *slash = strrchr(l->opts->self_exe, '/');
		int dirlen = slash ? (int)(slash - l->opts->self_exe) : 1;

		snprintf(path, sizeof(path), "%.*s/../lib/%s%s", dirlen,
			 slash ? l->opts->self_exe : ".",
			 l->link == UJS_LINK_MUSL ? "musl/" : "", SHIM_NAME);
		given = path;
		from = "default; set it with --preload or UJAIL_PRELOAD";
	}
	if (!realpath(given, l->shim))
		return fail(err, errlen, "preload shim %s (%s): %s", given, from,
			    strerror(errno));
	if (strpbrk(l->shim, " :"))
		return fail(err, errlen, "preload shim %s: LD_PRELOAD cannot name a path with ' ' or ':'",
			    l->shim);
	return 0;
}

static int program_memfd(const struct ujs_loaded_program *prog, char *err,
			 size_t errlen)
{
	const int seals = F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE;
	int fd = memfd_create("ujail-seccomp-program", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd < 0)
		return fail(err, errlen, "memfd_create: %s", strerror(errno));
	if (ujs_program_write(fd, prog->insns, prog->count, prog->audit_arch,
			      prog->flags, err, errlen) ||
	    fcntl(fd, F_ADD_SEALS, seals) < 0 || lseek(fd, 0, SEEK_SET) < 0) {
		if (!err[0])
			fail(err, errlen, "program memfd: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

__attribute__((noreturn, format(printf, 1, 2)))
static void child_die(const char *fmt, ...)
{
	va_list ap;

	fputs("ujail-seccomp: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	_exit(127);
}

static void inherit_fd(int fd)
{
	if (fd >= 0 && fcntl(fd, F_SETFD, 0) < 0)
		child_die("fcntl: %s", strerror(errno));
}

static void setenv_or_die(const char *name, const char *value)
{
	if (setenv(name, value, 1))
		child_die("setenv %s: %s", name, strerror(errno));
}

static void setenv_fd(const char *name, int fd)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", fd);
	setenv_or_die(name, buf);
}

/* The shim's environment (load.h). */
static void dynamic_environment(const struct launch *l)
{
	const char *old = getenv("LD_PRELOAD");
	char *preload;

	setenv_fd(UJS_ENV_FD, l->prog_fd);
	setenv_or_die(UJS_ENV_MODE, ujs_mode_name(l->opts->mode));
	unsetenv(UJS_ENV_FILE);
	unsetenv(UJS_ENV_NOTIFY_FD);
	if (l->sock[1] >= 0)
		setenv_fd(UJS_ENV_NOTIFY_FD, l->sock[1]);
	if (old && *old) {
		if (asprintf(&preload, "%s:%s", l->shim, old) < 0)
			child_die("out of memory");
		setenv_or_die("LD_PRELOAD", preload);
		free(preload);
	} else {
		setenv_or_die("LD_PRELOAD", l->shim);
	}
}

__attribute__((noreturn))
static void run_child(const struct launch *l)
{
	struct ujs_loaded_program prog = *l->prog;
	char err[256];

	sigprocmask(SIG_SETMASK, &l->oldmask, NULL);
	inherit_fd(l->sock[1]);
	if (l->link != UJS_LINK_STATIC) {
		inherit_fd(l->prog_fd);
		dynamic_environment(l);
		/* A set-uid program would drop LD_PRELOAD and run unfiltered. */
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
			child_die("prctl(PR_SET_NO_NEW_PRIVS): %s", strerror(errno));
	} else if (ujs_install_mode(&prog, l->opts->mode, l->sock[1], err, sizeof(err)) < 0) {
		child_die("%s: %s", l->path, err);
	}
	execv(l->path, l->argv);
	child_die("%s: %s", l->path, strerror(errno));
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int prepare(struct launch *l, char *err, size_t errlen)
{
	sigset_t set;

	if (ujs_resolve_command(l->argv[0], l->path, sizeof(l->path), err, errlen) ||
	    ujs_link_kind(l->path, &l->link, err, errlen))
		return -1;
	if (l->link != UJS_LINK_STATIC &&
	    (find_shim(l, err, errlen) ||
	     (l->prog_fd = program_memfd(l->prog, err, errlen)) < 0))
		return -1;
	if (l->opts->mode == UJS_MODE_NOTIFY &&
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, l->sock))
		return fail(err, errlen, "socketpair: %s", strerror(errno));
	ujs_supervise_sigset(&set);
	if (sigprocmask(SIG_BLOCK, &set, &l->oldmask))
		return fail(err, errlen, "sigprocmask: %s", strerror(errno));
	l->masked = true;
	l->sigfd = signalfd(-1, &set, SFD_CLOEXEC);
	if (l->sigfd < 0)
		return fail(err, errlen, "signalfd: %s", strerror(errno));
	return 0;
}

int ujs_run(const struct ujs_run_opts *opts,
	    const struct ujs_loaded_program *prog, char *const argv[],
	    char *err, size_t errlen)
{
	struct launch l = {
		.opts = opts, .prog = prog, .argv = argv,
		.prog_fd = -1, .sock = { -1, -1 }, .sigfd = -1,
	};
	struct ujs_supervisor sv = {
		.name = opts->name, .insns = prog->insns, .len = prog->count,
		.log = opts->log,
	};
	int ret = -1;
	pid_t pid;

	err[0] = '\0';
	sigemptyset(&l.oldmask);
	if (prepare(&l, err, errlen) == 0) {
		fflush(NULL);
		pid = fork();
		if (pid == 0)
			run_child(&l);
		if (pid < 0) {
			fail(err, errlen, "fork: %s", strerror(errno));
		} else {
			close_fd(&l.sock[1]);
			close_fd(&l.prog_fd);
			ret = ujs_supervise(&sv, pid, l.sigfd, l.sock[0], err, errlen);
			l.sock[0] = -1;	/* closed by the supervisor */
		}
	}
	if (l.masked)
		sigprocmask(SIG_SETMASK, &l.oldmask, NULL);
	close_fd(&l.sigfd);
	close_fd(&l.prog_fd);
	close_fd(&l.sock[0]);
	close_fd(&l.sock[1]);
	return ret;
}
