! Jacobi relaxation of the Poisson problem -lap(u) = f on an n x n grid
! (zero boundary) on a 2-D Cartesian process grid (MPI_Dims_create,
! MPI_Cart_create, MPI_Cart_shift). The halos are described by derived
! datatypes instead of packed buffers: the strided planes of fixed first
! index by MPI_Type_vector, the contiguous lines of fixed second index by
! MPI_Type_create_subarray (one type per face, the start in the type).
! They go by synchronous sends, MPI_Ssend/MPI_Recv, ordered by the parity
! of the process coordinate so that the chain cannot deadlock: in each
! direction the even ranks send first and then receive, the odd ones
! receive first. After each sweep the squared update is reduced to the
! root (MPI_Reduce), which decides convergence and broadcasts the flag
! (MPI_Bcast); the loop ends at convergence or after the given steps.
!
! Usage: subarray_ssend [n [steps [tol]]]   (default 1024 400 1e-12)
! Prints "result ..." lines and "loop: <k> iterations, <t> s, <t/k> s per iteration".
program subarray_ssend
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, n, maxsteps, step, nsteps, i, j
  integer :: dims(2), coords(2), cart, xlo, xhi, ylo, yhi
  integer :: nxl, nyl, i0, j0, xbase, xextra, ybase, yextra
  integer :: plane_t, line_send_lo, line_send_hi, line_recv_lo, line_recv_hi
  integer :: sizes(2), subsizes(2), starts(2)
  logical :: periods(2), converged
  double precision, allocatable :: u(:,:), unew(:,:), f(:,:)
  double precision :: h, x, y, t0, t, tmax, diff, diffg, tol, s, sg, s2, s2g
  character(len=32) :: arg

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  n = 1024
  maxsteps = 400
  tol = 1.0d-12
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  if (command_argument_count() > 1) then
    call get_command_argument(2, arg)
    read (arg, *) maxsteps
  end if
  if (command_argument_count() > 2) then
    call get_command_argument(3, arg)
    read (arg, *) tol
  end if

  dims = 0
  call MPI_Dims_create(nprocs, 2, dims, ierr)
  periods = .false.
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .true., cart, ierr)
  call MPI_Comm_rank(cart, rank, ierr)
  call MPI_Cart_coords(cart, rank, 2, coords, ierr)
  call MPI_Cart_shift(cart, 0, 1, xlo, xhi, ierr)
  call MPI_Cart_shift(cart, 1, 1, ylo, yhi, ierr)
  ! blocks, the first n mod dims ranks one more
  xbase = n / dims(1)
  xextra = mod(n, dims(1))
  ybase = n / dims(2)
  yextra = mod(n, dims(2))
  nxl = xbase
  if (coords(1) < xextra) nxl = nxl + 1
  nyl = ybase
  if (coords(2) < yextra) nyl = nyl + 1
  i0 = coords(1) * xbase + min(coords(1), xextra)
  j0 = coords(2) * ybase + min(coords(2), yextra)

  allocate(u(0:nxl+1, 0:nyl+1), unew(0:nxl+1, 0:nyl+1), f(nxl, nyl))
  u = 0
  unew = 0
  h = 1.0d0 / (n + 1)
  do j = 1, nyl
    do i = 1, nxl
      x = (i0 + i) * h
      y = (j0 + j) * h
      f(i, j) = h * h * (1.0d0 + 20.0d0 * x * (1 - x) * sin(4.0d0 * y))
    end do
  end do

  ! a plane of fixed first index: nyl values nxl+2 apart
  call MPI_Type_vector(nyl, 1, nxl + 2, MPI_DOUBLE_PRECISION, plane_t, ierr)
  call MPI_Type_commit(plane_t, ierr)
  ! lines of fixed second index, as subarrays of the whole local array
  sizes = (/ nxl + 2, nyl + 2 /)
  subsizes = (/ nxl, 1 /)
  starts = (/ 1, 1 /)
  call MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_DOUBLE_PRECISION, &
                                line_send_lo, ierr)
  starts = (/ 1, nyl /)
  call MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_DOUBLE_PRECISION, &
                                line_send_hi, ierr)
  starts = (/ 1, 0 /)
  call MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_DOUBLE_PRECISION, &
                                line_recv_lo, ierr)
  starts = (/ 1, nyl + 1 /)
  call MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_DOUBLE_PRECISION, &
                                line_recv_hi, ierr)
  call MPI_Type_commit(line_send_lo, ierr)
  call MPI_Type_commit(line_send_hi, ierr)
  call MPI_Type_commit(line_recv_lo, ierr)
  call MPI_Type_commit(line_recv_hi, ierr)

  converged = .false.
  nsteps = 0
  diffg = 0
  call MPI_Barrier(cart, ierr)
  t0 = MPI_Wtime()
  do step = 1, maxsteps
    ! first index: planes, upward then downward
    if (mod(coords(1), 2) == 0) then
      call MPI_Ssend(u(nxl, 1), 1, plane_t, xhi, 11, cart, ierr)
      call MPI_Recv(u(0, 1), 1, plane_t, xlo, 11, cart, MPI_STATUS_IGNORE, ierr)
      call MPI_Ssend(u(1, 1), 1, plane_t, xlo, 12, cart, ierr)
      call MPI_Recv(u(nxl+1, 1), 1, plane_t, xhi, 12, cart, MPI_STATUS_IGNORE, ierr)
    else
      call MPI_Recv(u(0, 1), 1, plane_t, xlo, 11, cart, MPI_STATUS_IGNORE, ierr)
      call MPI_Ssend(u(nxl, 1), 1, plane_t, xhi, 11, cart, ierr)
      call MPI_Recv(u(nxl+1, 1), 1, plane_t, xhi, 12, cart, MPI_STATUS_IGNORE, ierr)
      call MPI_Ssend(u(1, 1), 1, plane_t, xlo, 12, cart, ierr)
    end if
    ! second index: lines, the subarray types addressed from the array's start
    if (mod(coords(2), 2) == 0) then
      call MPI_Ssend(u, 1, line_send_hi, yhi, 13, cart, ierr)
      call MPI_Recv(u, 1, line_recv_lo, ylo, 13, cart, MPI_STATUS_IGNORE, ierr)
      call MPI_Ssend(u, 1, line_send_lo, ylo, 14, cart, ierr)
      call MPI_Recv(u, 1, line_recv_hi, yhi, 14, cart, MPI_STATUS_IGNORE, ierr)
    else
      call MPI_Recv(u, 1, line_recv_lo, ylo, 13, cart, MPI_STATUS_IGNORE, ierr)
      call MPI_Ssend(u, 1, line_send_hi, yhi, 13, cart, ierr)
      call MPI_Recv(u, 1, line_recv_hi, yhi, 14, cart, MPI_STATUS_IGNORE, ierr)
      call MPI_Ssend(u, 1, line_send_lo, ylo, 14, cart, ierr)
    end if

    diff = 0
    do j = 1, nyl
      do i = 1, nxl
        unew(i, j) = 0.25d0 * (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1) + f(i, j))
        diff = diff + (unew(i, j) - u(i, j))**2
      end do
    end do
    u(1:nxl, 1:nyl) = unew(1:nxl, 1:nyl)
    nsteps = step

    call MPI_Reduce(diff, diffg, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, cart, ierr)
    if (rank == 0) then
      converged = sqrt(diffg) < tol
      if (mod(step, 100) == 0) write (*, '(a,i6,a,es12.5)') 'step ', step, '  update ', sqrt(diffg)
    end if
    call MPI_Bcast(converged, 1, MPI_LOGICAL, 0, cart, ierr)
    if (converged) exit
  end do
  t = MPI_Wtime() - t0

  s = 0
  s2 = 0
  do j = 1, nyl
    do i = 1, nxl
      s = s + u(i, j)
      s2 = s2 + u(i, j)**2
    end do
  end do
  call MPI_Reduce(s, sg, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, cart, ierr)
  call MPI_Reduce(s2, s2g, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, cart, ierr)
  call MPI_Reduce(t, tmax, 1, MPI_DOUBLE_PRECISION, MPI_MAX, 0, cart, ierr)
  if (rank == 0) then
    write (*, '(a,es18.10)') 'result sum ', sg * h * h
    write (*, '(a,es18.10)') 'result norm ', sqrt(s2g * h * h)
    write (*, '(a,i0)') 'result steps ', nsteps
    write (*, '(a,i0,a,f10.6,a,es13.6,a)') 'loop: ', nsteps, ' iterations, ', tmax, ' s, ', tmax / nsteps, &
      ' s per iteration'
  end if
  call MPI_Type_free(plane_t, ierr)
  call MPI_Type_free(line_send_lo, ierr)
  call MPI_Type_free(line_send_hi, ierr)
  call MPI_Type_free(line_recv_lo, ierr)
  call MPI_Type_free(line_recv_hi, ierr)
  call MPI_Comm_free(cart, ierr)
  deallocate(u, unew, f)
  call MPI_Finalize(ierr)
end program subarray_ssend
