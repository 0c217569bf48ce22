// Package names holds the rules for the names people pick on the contest server: user names
// and bot names. A name is short ASCII; names reserved for the arena itself (the house, the
// organiser, administrators) are refused; and two names that look alike (differ only in letter
// case, in a confusable letter such as 0 and O, 1 and l, rn and m, or in a separator) share one
// Key, which the store keeps unique, so nobody can pass for another author or for the house.
package names
