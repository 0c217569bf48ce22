// Package deploy holds no code: its folder is the arena's container image (Dockerfile, the
// image's entrypoint) and a Kubernetes Deployment of workers (kubernetes/worker.yaml). Its
// test checks what can be checked without a container runtime: every file the Dockerfile copies
// from the checkout exists and is not excluded by .dockerignore, every stage it copies from is
// defined, the image's entrypoint and the binary's path agree, and the arena commands and flags
// the image and the Deployment run are real ones.
package deploy
