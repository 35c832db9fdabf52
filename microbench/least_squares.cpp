#include "microbench/least_squares.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "microbench/statistics.hpp"

namespace mheta::microbench {

LinearFit weighted_least_squares(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const Eigen::VectorXd& sigma) {
  const Eigen::Index n = x.rows();
  const Eigen::Index k = x.cols();
  if (y.size() != n || sigma.size() != n || k == 0) {
    throw std::invalid_argument("weighted_least_squares: inconsistent dimensions");
  }
  const Eigen::VectorXd w = sigma.cwiseInverse();
  Eigen::MatrixXd a = w.asDiagonal() * x;
  const Eigen::VectorXd b = w.cwiseProduct(y);
  Eigen::VectorXd scale = a.colwise().norm().transpose();
  for (Eigen::Index j = 0; j < k; ++j) {
    if (scale(j) == 0) scale(j) = 1;
  }
  a = a * scale.cwiseInverse().asDiagonal();

  const Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(a);
  const Eigen::VectorXd scaled = cod.solve(b);
  const Eigen::VectorXd residual = a * scaled - b;
  const Eigen::Index dof = n - cod.rank();
  LinearFit fit;
  fit.coefficients = scaled.cwiseQuotient(scale);
  fit.reduced_chi2 = dof > 0 ? residual.squaredNorm() / static_cast<double>(dof) : 0;

  // Cov(c) = (A^T A)^+ in the scaled variables, times max(1, chi2/dof).
  const Eigen::MatrixXd ata_pinv = (a.transpose() * a).completeOrthogonalDecomposition().pseudoInverse();
  const double inflate = std::max(1.0, fit.reduced_chi2);
  // While the points scatter no more than their error bars, the weights
  // (errors of medians of many timings) are the error estimate: the normal
  // 1.96. Once the residuals set the scale, it is estimated from dof
  // values: Student's t.
  const double t = fit.reduced_chi2 > 1 && dof > 0 ? student_t95(dof) : 1.96;
  fit.ci95.resize(k);
  for (Eigen::Index j = 0; j < k; ++j) {
    fit.ci95(j) = t * std::sqrt(std::max(0.0, ata_pinv(j, j)) * inflate) / scale(j);
  }
  return fit;
}

}  // namespace mheta::microbench
