/* SPDX-License-Identifier: BSD-2-Clause */
/* Writing the tool's outputs (cli.h): nothing an input is, nothing that
 * exists unless -y, and never a half-written file at the target's name:
 * each output is written to a temporary beside it and renamed into place
 * once complete (docs/reading-inputs.md, "Outputs"). */
/* POSIX.1-2008: open flags, fstat modes, link, getpid. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#if !defined(__wasi__)
#include <dirent.h>
#include <signal.h>
typedef volatile sig_atomic_t temp_flag;
#else
typedef volatile int temp_flag; /* WASI has no signals */
#endif

/* ---- temporaries a signal must not leave behind ------------------------
 * SIGTERM, SIGINT and SIGHUP remove every temporary still open, then end
 * the process as the signal would have (a hidden .NAME.XXXXXX of up to an
 * output's size was left beside it). The handler reads only these slots:
 * a path is copied in before its flag is set, and the flag cleared before
 * the path is freed. */
#define TEMP_SLOTS 8
#define TEMP_PATH_MAX 4096
static char temp_paths[TEMP_SLOTS][TEMP_PATH_MAX];
static temp_flag temp_used[TEMP_SLOTS];

static int temp_track(const char *path) {
    if (strlen(path) >= TEMP_PATH_MAX) return -1;
    for (int i = 0; i < TEMP_SLOTS; i++)
        if (!temp_used[i]) {
            memcpy(temp_paths[i], path, strlen(path) + 1);
            temp_used[i] = 1;
            return i;
        }
    return -1; /* more open at once than slots: that one is not tracked */
}

static void temp_untrack(const char *path) {
    for (int i = 0; i < TEMP_SLOTS; i++)
        if (temp_used[i] && strcmp(temp_paths[i], path) == 0) temp_used[i] = 0;
}

#if !defined(__wasi__)
static void remove_temps(int sig) {
    for (int i = 0; i < TEMP_SLOTS; i++)
        if (temp_used[i]) unlink(temp_paths[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}
#endif

void cli_out_on_signals(void) {
#if !defined(__wasi__)
    static const int sigs[] = {SIGTERM, SIGINT, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_temps;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
    /* A reader that closes its pipe early (| head) is a write error with its
     * reason, said once, not a death by SIGPIPE. */
    signal(SIGPIPE, SIG_IGN);
#endif
}

static int out_error(const char *command, const char *name, const char *what) {
    fprintf(stderr, "wai %s: %s: %s\n", command, name, what);
    return EXIT_USAGE;
}

int cli_out_check(const char *command, const char *target, const cli_inputs *in) {
    struct stat st;
    if (stat(target, &st) != 0) {
        if (errno == ENOENT) return 0;
        return out_error(command, target, strerror(errno));
    }
    if (cli_inputs_has(in, &st))
        return out_error(command, target,
                         "is one of this command's inputs: refusing to write over it");
    if (S_ISDIR(st.st_mode)) return out_error(command, target, "is a directory");
    if (!in || !in->force)
        return out_error(command, target, "exists: give -y (--force) to replace it");
    if (!S_ISREG(st.st_mode))
        return out_error(command, target, "exists and is not a regular file: refusing to replace it");
    return 0;
}

/* A temporary's name says whose it is: ".NAME.wai-PID.XXXXXX" beside the
 * target, so that one a SIGKILL left (no handler runs) can be told from a
 * live run's and removed by the next run to the same target. */
#define TEMP_TAG ".wai-"

static unsigned long own_pid(void) {
#if defined(__wasi__)
    return 0; /* no process id, and one process per runtime */
#else
    return (unsigned long)getpid();
#endif
}

/* "DIR/.NAME.wai-PID.XXXXXX" beside target. */
static char *temp_name(const char *target) {
    const char *slash = strrchr(target, '/');
    size_t dir_len = slash ? (size_t)(slash - target) + 1 : 0;
    const char *base = target + dir_len;
    size_t n = dir_len + 1 + strlen(base) + sizeof TEMP_TAG + 20 + 8;
    char *t = malloc(n);
    if (t) snprintf(t, n, "%.*s.%s" TEMP_TAG "%lu.XXXXXX", (int)dir_len, target, base, own_pid());
    return t;
}

#if !defined(__wasi__)
/* The process id a temporary of base's names, or 0: ".BASE.wai-PID.XXXXXX"
 * with PID digits and six name characters. */
static unsigned long temp_owner(const char *entry, const char *base) {
    size_t b = strlen(base), t = strlen(TEMP_TAG);
    if (entry[0] != '.' || strncmp(entry + 1, base, b) != 0 || strncmp(entry + 1 + b, TEMP_TAG, t))
        return 0;
    const char *d = entry + 1 + b + t;
    unsigned long pid = 0;
    size_t k = 0;
    for (; d[k] >= '0' && d[k] <= '9' && k < 10; k++) pid = pid * 10 + (unsigned long)(d[k] - '0');
    if (k == 0 || d[k] != '.' || strlen(d + k + 1) != 6) return 0;
    return pid;
}

/* Removes the temporaries of target that a run stopped by SIGKILL left:
 * ours by name, a regular file of this user, whose process has ended
 * (kill(pid, 0): ESRCH). One whose process lives is another run's: left.
 * Only names are listed; no file is read. */
static void remove_stale_temps(const char *command, const char *target) {
    const char *slash = strrchr(target, '/');
    char dir[4096];
    const char *base = slash ? slash + 1 : target;
    size_t dir_len = slash ? (size_t)(slash - target) : 0;
    if (dir_len + 1 > sizeof dir) return;
    if (slash) {
        memcpy(dir, target, dir_len ? dir_len : 1);
        dir[dir_len ? dir_len : 1] = '\0';
    } else {
        memcpy(dir, ".", 2);
    }
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        unsigned long pid = temp_owner(e->d_name, base);
        if (pid == 0 || pid == own_pid() || pid > (unsigned long)INT32_MAX) continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
        char path[4096 + 256];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != getuid()) continue;
        if (unlink(path) == 0)
            fprintf(stderr, "wai %s: removed %s: a temporary of %s that a stopped run (process "
                            "%lu) left\n",
                    command, path, target, pid);
    }
    closedir(d);
}
#endif

/* Fills name's XXXXXX, tracks the name, then makes the file exclusively
 * (O_EXCL: never an existing file, nor through a link), mode 0666 less the
 * umask as any new file gets; on EEXIST it untracks and tries another.
 * Tracked before it exists, so a signal delivered to any thread (the
 * decoder's pool has several) finds the name of every temporary on disk. */
static int make_temp(char *name) {
    size_t n = strlen(name);
    static unsigned counter;
    const unsigned seed = (unsigned)own_pid() * 40503u ^ (unsigned)time(NULL);
    for (int tries = 0; tries < 1000; tries++) {
        unsigned v = seed ^ ++counter * 2654435761u;
        for (size_t i = 0; i < 6; i++, v /= 36)
            name[n - 6 + i] = "0123456789abcdefghijklmnopqrstuvwxyz"[v % 36];
        temp_track(name);
        int fd = open(name, O_WRONLY | O_CREAT | O_EXCL, 0666);
        if (fd >= 0) return fd;
        int e = errno;
        temp_untrack(name);
        errno = e;
        if (e != EEXIST) return -1;
    }
    return -1;
}

int cli_out_open(const char *command, const char *target, const cli_inputs *in,
                 cli_out_file *o) {
    memset(o, 0, sizeof *o);
    o->target = target;
    if (strcmp(target, "-") == 0) {
        o->f = stdout;
        o->is_stdout = 1;
        return 0;
    }
    int rc = cli_out_check(command, target, in);
    if (rc != 0) return rc;
    o->force = in && in->force;
#if !defined(__wasi__)
    remove_stale_temps(command, target);
#endif
    o->tmp = temp_name(target);
    if (!o->tmp) return out_error(command, target, "out of memory");
    int fd = make_temp(o->tmp);
    int e = errno;
    if (fd < 0) {
        free(o->tmp);
        o->tmp = NULL;
        return out_error(command, target, strerror(e));
    }
    if (!(o->f = fdopen(fd, "wb"))) {
        e = errno;
        close(fd);
        unlink(o->tmp);
        temp_untrack(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
        return out_error(command, target, strerror(e));
    }
    return 0;
}

void cli_out_discard(cli_out_file *o) {
    if (!o->f) return;
    if (o->is_stdout) {
        fflush(stdout);
    } else {
        fclose(o->f);
        unlink(o->tmp);
        temp_untrack(o->tmp);
    }
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

int cli_out_commit(const char *command, cli_out_file *o) {
    if (!o->f) return 0;
    int bad = fflush(o->f) != 0 || ferror(o->f);
    int e = errno;
    if (o->is_stdout) {
        memset(o, 0, sizeof *o);
        return bad ? out_error(command, "standard output", e ? strerror(e) : "write failed") : 0;
    }
    if (fclose(o->f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    o->f = NULL;
    if (!bad) {
        /* Without -y, link() refuses a target that appeared meanwhile; a
         * file system without hard links falls back to rename(). */
        if (!o->force && link(o->tmp, o->target) == 0) {
            unlink(o->tmp);
        } else if (!o->force && errno == EEXIST) {
            bad = 1;
            e = EEXIST;
        } else if (rename(o->tmp, o->target) != 0) {
            bad = 1;
            e = errno;
        }
    }
    if (bad) unlink(o->tmp);
    temp_untrack(o->tmp);
    free(o->tmp);
    const char *target = o->target;
    memset(o, 0, sizeof *o);
    if (bad)
        return out_error(command, target,
                         e == EEXIST ? "appeared while it was written: kept, nothing written"
                         : e ? strerror(e) : "write failed");
    return 0;
}
