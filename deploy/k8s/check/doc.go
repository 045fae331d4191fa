// Package check holds the tests of cara's Kubernetes manifests (deploy/k8s): each kustomization
// built as kubectl -k builds it, every object decoded strictly into the Kubernetes API's types,
// every pod held to Pod Security "restricted" by the admission's own checks, the parameters
// checked to reach every place they are used, and the sweep's pods' commands run as the kubelet
// would run them. It is a module of its own so that cara's module needs no Kubernetes packages.
package check
