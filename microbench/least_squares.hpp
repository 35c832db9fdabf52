#pragma once
// Weighted linear least squares with 95% confidence intervals on the
// coefficients: the one fitting routine behind alpha/beta (ping-pong), the
// disk's overhead and per-byte cost, and the collective cost curves.
#include <Eigen/Dense>

namespace mheta::microbench {

struct LinearFit {
  Eigen::VectorXd coefficients;
  Eigen::VectorXd ci95;  // half-widths, same order
  double reduced_chi2 = 0;
};

// Fits y ~ X*c where each y_i is a mean with standard error sigma_i (> 0).
// Columns are scaled before solving because they differ by orders of
// magnitude (1 beside a byte count of 1e6), and a rank-deficient design gets
// the minimum-norm solution instead of garbage. The covariance is inflated by
// the reduced chi-square when the points scatter more than their error bars
// say (the usual case on a shared machine).
LinearFit weighted_least_squares(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const Eigen::VectorXd& sigma);

}  // namespace mheta::microbench
