/*
 * server.d -- the probes of server.c: myserv$target:::request-start and
 * the rest, as a D script names them.  `dscope -h` turns this file into
 * server_probes.h (MYSERV_REQUEST_START(...) and the others), `dscope -G`
 * into server_probes.o, the probes' semaphores.
 *
 * Like seed 003's libxtc, the lock probes sit on the slow path only: an
 * uncontended lock fires none, so they cost nothing where it matters.
 */
provider myserv {
	/* a request arrives: its id, its reason (1 static, 2 query,
	 * 3 rebuild) and the path asked for */
	probe request__start(uint64_t id, int reason, char *path);
	/* it is answered: its id, its reason, the status sent */
	probe request__done(uint64_t id, int reason, int status);
	/* a thread found the lock held and waits for it */
	probe lock__wait__start(void *lock);
	/* ... and has it now */
	probe lock__wait__done(void *lock);
};

#pragma D attributes Evolving/Evolving/Common provider myserv provider
#pragma D attributes Private/Private/Unknown provider myserv module
#pragma D attributes Private/Private/Unknown provider myserv function
#pragma D attributes Evolving/Evolving/Common provider myserv name
#pragma D attributes Evolving/Evolving/Common provider myserv args
