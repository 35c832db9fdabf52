! Conjugate gradient on the 5-point Laplacian of an nx x ny grid, distributed
! over a 2-D process grid, in the style of the NAS CG benchmark: the setup
! uses collectives (parameter broadcast, grid creation, initial norm), the
! main loop has none. Halos are exchanged with neighbours and every dot
! product is reduced by recursive doubling with MPI_Irecv / MPI_Send /
! MPI_Wait pairs (the number of ranks must be a power of two).
!
! Usage: cg_pgrid [n [iterations]]   (n x n grid, default 512, 250)
! Prints "result residual <r>" and "loop: <k> iterations, <t> s, <t/k> s per iteration".
program cg_pgrid
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, n, niter, it, i, j
  integer :: dims(2), coords(2), grid, north, south, west, east
  integer :: nxl, nyl, i0, j0
  logical :: periods(2)
  double precision, allocatable :: x(:,:), r(:,:), p(:,:), q(:,:), b(:,:)
  double precision :: rho, rho_old, pq, alpha, beta, rnorm, t0, t1, tmax
  character(len=32) :: arg
  integer :: params(2)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  if (iand(nprocs, nprocs - 1) /= 0) then
    if (rank == 0) print '(a)', 'cg_pgrid: the number of ranks must be a power of two'
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  params = (/ 512, 250 /)
  if (rank == 0) then
    if (command_argument_count() > 0) then
      call get_command_argument(1, arg)
      read (arg, *) params(1)
    end if
    if (command_argument_count() > 1) then
      call get_command_argument(2, arg)
      read (arg, *) params(2)
    end if
  end if
  call MPI_Bcast(params, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  n = params(1)
  niter = params(2)

  dims = 0
  call MPI_Dims_create(nprocs, 2, dims, ierr)
  periods = .false.
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., grid, ierr)
  call MPI_Cart_coords(grid, rank, 2, coords, ierr)
  call MPI_Cart_shift(grid, 0, 1, north, south, ierr)
  call MPI_Cart_shift(grid, 1, 1, west, east, ierr)
  ! Rows (first grid dimension) over dims(1) ranks, columns over dims(2).
  nyl = n / dims(1)
  nxl = n / dims(2)
  j0 = coords(1) * nyl
  i0 = coords(2) * nxl

  allocate(x(0:nxl+1, 0:nyl+1), r(0:nxl+1, 0:nyl+1), p(0:nxl+1, 0:nyl+1))
  allocate(q(0:nxl+1, 0:nyl+1), b(0:nxl+1, 0:nyl+1))
  x = 0; r = 0; p = 0; q = 0; b = 0
  do j = 1, nyl
    do i = 1, nxl
      b(i, j) = sin(dble(i0 + i) * 0.013d0) * cos(dble(j0 + j) * 0.007d0) + 0.5d0
    end do
  end do
  r(1:nxl, 1:nyl) = b(1:nxl, 1:nyl)
  p = r
  rho_old = sum(r(1:nxl, 1:nyl)**2)
  call MPI_Allreduce(rho_old, rho, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  t0 = MPI_Wtime()
  do it = 1, niter
    call exchange_halo(p)
    do j = 1, nyl
      do i = 1, nxl
        q(i, j) = 4.0d0 * p(i, j) - p(i-1, j) - p(i+1, j) - p(i, j-1) - p(i, j+1)
      end do
    end do
    pq = reduce_sum(sum(p(1:nxl, 1:nyl) * q(1:nxl, 1:nyl)))
    alpha = rho / pq
    x(1:nxl, 1:nyl) = x(1:nxl, 1:nyl) + alpha * p(1:nxl, 1:nyl)
    r(1:nxl, 1:nyl) = r(1:nxl, 1:nyl) - alpha * q(1:nxl, 1:nyl)
    rho_old = rho
    rho = reduce_sum(sum(r(1:nxl, 1:nyl)**2))
    beta = rho / rho_old
    p(1:nxl, 1:nyl) = r(1:nxl, 1:nyl) + beta * p(1:nxl, 1:nyl)
  end do
  t1 = MPI_Wtime() - t0
  call MPI_Reduce(t1, tmax, 1, MPI_DOUBLE_PRECISION, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
  rnorm = sqrt(rho)
  if (rank == 0) then
    print '(a, es22.14)', 'result residual ', rnorm
    print '(a, i0, a, f0.6, a, es12.5, a)', 'loop: ', niter, ' iterations, ', tmax, ' s, ', &
      tmax / niter, ' s per iteration'
  end if
  deallocate(x, r, p, q, b)
  call MPI_Finalize(ierr)

contains

  ! Sum over all ranks by recursive doubling: log2(nprocs) exchanges.
  double precision function reduce_sum(local)
    double precision, intent(in) :: local
    double precision :: mine, theirs
    integer :: bit, partner, request, status(MPI_STATUS_SIZE)
    mine = local
    bit = 1
    do while (bit < nprocs)
      partner = ieor(rank, bit)
      call MPI_Irecv(theirs, 1, MPI_DOUBLE_PRECISION, partner, bit, MPI_COMM_WORLD, request, ierr)
      call MPI_Send(mine, 1, MPI_DOUBLE_PRECISION, partner, bit, MPI_COMM_WORLD, ierr)
      call MPI_Wait(request, status, ierr)
      ! Same order of operands on both partners: identical sums.
      if (rank < partner) then
        mine = mine + theirs
      else
        mine = theirs + mine
      end if
      bit = bit * 2
    end do
    reduce_sum = mine
  end function reduce_sum

  subroutine exchange_halo(v)
    double precision, intent(inout) :: v(0:nxl+1, 0:nyl+1)
    double precision :: send_w(nyl), send_e(nyl), recv_w(nyl), recv_e(nyl)
    integer :: requests(4), statuses(MPI_STATUS_SIZE, 4)
    requests = MPI_REQUEST_NULL
    ! Rows (contiguous in i) north and south; columns packed west and east.
    call MPI_Irecv(v(1, 0), nxl, MPI_DOUBLE_PRECISION, north, 1, grid, requests(1), ierr)
    call MPI_Irecv(v(1, nyl+1), nxl, MPI_DOUBLE_PRECISION, south, 2, grid, requests(2), ierr)
    call MPI_Send(v(1, nyl), nxl, MPI_DOUBLE_PRECISION, south, 1, grid, ierr)
    call MPI_Send(v(1, 1), nxl, MPI_DOUBLE_PRECISION, north, 2, grid, ierr)
    call MPI_Waitall(2, requests, statuses, ierr)
    if (west /= MPI_PROC_NULL .or. east /= MPI_PROC_NULL) then
      send_w = v(1, 1:nyl)
      send_e = v(nxl, 1:nyl)
      call MPI_Irecv(recv_w, nyl, MPI_DOUBLE_PRECISION, west, 3, grid, requests(3), ierr)
      call MPI_Irecv(recv_e, nyl, MPI_DOUBLE_PRECISION, east, 4, grid, requests(4), ierr)
      call MPI_Send(send_e, nyl, MPI_DOUBLE_PRECISION, east, 3, grid, ierr)
      call MPI_Send(send_w, nyl, MPI_DOUBLE_PRECISION, west, 4, grid, ierr)
      call MPI_Waitall(2, requests(3:4), statuses, ierr)
      if (west /= MPI_PROC_NULL) v(0, 1:nyl) = recv_w
      if (east /= MPI_PROC_NULL) v(nxl+1, 1:nyl) = recv_e
    end if
  end subroutine exchange_halo

end program cg_pgrid
