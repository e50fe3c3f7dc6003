"""The package's internal layer: each computation once, on clean input.

Public functions validate their arguments (:mod:`evalmetrics.arrays`) and
then call these kernels, which assume clean input and return numbers.  One
module per idea, each function with a one-line contract:

* :mod:`.sorting` -- the packed sort keys and the threshold table (counts at
  every distinct score), unweighted and weighted;
* :mod:`.auc` -- the one AUC count ``2 U`` and its division, the AUC and the
  average precision read off the sort;
* :mod:`.resampling` -- the bootstrap's resamples (one stream of draws for the
  plain path and every engine) and its percentile;
* :mod:`.bootstrap_auc` -- the bootstrap of the AUC from counts over cells of
  tied scores (the engine a metric carries, see ``bootstrap_engine``);
* :mod:`.brier` -- the Brier score;
* :mod:`.log_loss` -- the log loss, clipped as scikit-learn clips it;
* :mod:`.normal` -- the standard normal distribution function and quantile;
* :mod:`.weights` -- sample weights at a safe scale, so that a ratio of
  weighted sums is the same for weights at any scale.

The slow, plain versions the tests use as oracles stay with the public
functions that teach them (:mod:`evalmetrics.ranking`).
"""
