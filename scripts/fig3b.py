#!/usr/bin/python3
"""The paper's figure 3b (CARA-P's tuned period against R on CovCon-D) from the paper's own stack.

CovCon-D's offline block as the paper describes it (1000 points a batch from N(((t+1)%7)/10, 0.1)
in both features, the boundary alpha*sin(pi*x1) > x2 flipped every 10 batches, 100 queries drawn
from each batch's data), a scikit-learn RandomForestClassifier(100 trees) per batch, sklearn's
rbf_kernel with gamma = 1/(d * the pooled variance of the offline data), C = A - B as the paper
defines it; then CARA-P tuned on batches 0..24 at 25 costs over (0, R_max], R_max the smallest R
at which the Oracle on batches 0..25 equals Never-retrain. It prints keep10 - keep2, the keeping
cost of period 10 minus that of period 2 (offset 0) on the offline block: period 2 beats period
10 while R < (keep10 - keep2)/10, so the paper's "period 2 up to R = 50" needs about 500.

cara's engine gives the same picture (docs/ARCHITECTURE.md, "Figure 3b"); this script shows it is
not cara's forest or kernel. Needs Debian's python3-sklearn (apt-get install -y python3-sklearn).

usage: /usr/bin/python3 scripts/fig3b.py [--seed 0] [--alpha 0.8] [--std 0.1] [--gamma scale|auto|X]
                                         [--window 1]
"""
import argparse
import json

import numpy as np
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics.pairwise import rbf_kernel

ap = argparse.ArgumentParser()
ap.add_argument('--seed', type=int, default=0)
ap.add_argument('--alpha', type=float, default=0.8)
ap.add_argument('--std', type=float, default=0.1)
ap.add_argument('--gamma', default='scale')
ap.add_argument('--window', type=int, default=1, help='fit M_t to batches t-window+1..t')
a = ap.parse_args()

OFF, N, M = 25, 1000, 100
T = OFF + 1  # batches 0..T_off: the offline block and the batch R_max is read on
rng = np.random.default_rng(a.seed)
Xs, ys, Qs = [], [], []
for t in range(T):
    X = rng.normal(((t + 1) % 7) / 10.0, a.std, size=(N, 2))
    up = a.alpha * np.sin(np.pi * X[:, 0]) > X[:, 1]
    Xs.append(X)
    ys.append((up if (t // 10) % 2 == 0 else ~up).astype(int))
    Qs.append(X[rng.choice(N, M, replace=False)])
gamma = {'scale': 1.0 / (2 * np.vstack(Xs[:OFF]).var()), 'auto': 0.5}.get(a.gamma) or float(a.gamma)
models = []
for t in range(T):
    lo = max(0, t - a.window + 1)
    models.append(RandomForestClassifier(n_estimators=100, random_state=t)
                  .fit(np.vstack(Xs[lo:t + 1]), np.concatenate(ys[lo:t + 1])))
loss = {(tp, t): (models[tp].predict(Xs[t]) != ys[t]).astype(float) for tp in range(T) for t in range(tp, T)}
C = np.zeros((T, T))
for t in range(T):
    k_t = rbf_kernel(Qs[t], Xs[t], gamma=gamma).sum(axis=0)
    for tp in range(t):
        k_tp = rbf_kernel(Qs[t], Xs[tp], gamma=gamma).sum(axis=0)
        C[tp, t] = (k_t @ loss[(tp, t)] - k_tp @ loss[(tp, tp)]) / N  # A - B


def replay(n, R, retrain):
    """Algorithm 1 over batches 0..n-1: (cost, retrains); a retrain costs R, a keep C[t', t]."""
    tp, cost, k = 0, R, 0
    for t in range(1, n):
        if retrain(t):
            tp, cost, k = t, cost + R, k + 1
        else:
            cost += C[tp, t]
    return cost, k


def oracle(n, R):
    best = np.full(n, np.inf)  # best[t']: the least cost so far with the model of t' in use
    best[0] = R
    for t in range(1, n):
        nxt = best + C[:n, t]
        nxt[t] = best[:t].min() + R
        best = np.where(np.arange(n) <= t, nxt, np.inf)
    return best.min()


def cara_p(R):
    """The tuned (period, offset) on batches 0..OFF-1; ties: never, fewest retrains, smallest p, o."""
    best = (replay(OFF, R, lambda t: False)[0], 0, 0, 0)
    for p in range(1, OFF + 1):
        for o in range(p):
            c, k = replay(OFF, R, lambda t, p=p, o=o: t % p == o)
            if c < best[0] or (c == best[0] and k < best[3]):
                best = (c, p, o, k)
    return best[1]


never = C[0, 1:].sum()
lo, hi = 0.0, 1e4
for _ in range(60):
    mid = (lo + hi) / 2
    lo, hi = (mid, hi) if oracle(T, mid) < never + mid - 1e-9 else (lo, mid)
keep = {p: replay(OFF, 0.0, lambda t, p=p: t % p == 0)[0] for p in (2, 10)}
segs = []
for R in np.linspace(hi / 25, hi, 25):
    p = cara_p(R) or 'inf'
    if segs and segs[-1][0] == p:
        segs[-1][2] = R
    else:
        segs.append([p, R, R])
print(json.dumps({'seed': a.seed, 'gamma': round(gamma, 3), 'r_max': round(hi, 1),
                  'keep10 - keep2': round(keep[10] - keep[2], 1),
                  'period against R': ', '.join(f'{p} at {x:.3g}-{y:.3g}' for p, x, y in segs)}))
