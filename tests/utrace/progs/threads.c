// SPDX-License-Identifier: GPL-2.0
/*
 * utrace's multithreaded case: THREADS threads (default 4) each make
 * exactly 250 getppid calls while the others run; the main thread none.
 */
#include <pthread.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CALLS 250
#define MAX_THREADS 64

static pthread_barrier_t start;

static void *worker(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&start);
	for (int i = 0; i < CALLS; i++)
		syscall(SYS_getppid);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	pthread_t t[MAX_THREADS];

	if (n < 1 || n > MAX_THREADS)
		return 2;
	pthread_barrier_init(&start, NULL, (unsigned int)n);
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, worker, NULL))
			return 1;
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}
