// Package budget bounds what strangers can make a server spend: Slots (a semaphore with a
// bounded queue and a bounded wait, for costly work such as password hashing), PerKey (at most
// N at once per client address, for requests and streams) and Listener (at most N open
// connections per client address and in all, so one client cannot hold the server's file
// descriptors). Each refusal is immediate and cheap; the caller answers it (503, Retry-After).
package budget
