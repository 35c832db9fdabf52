! 2-D acoustic wave equation u_tt = c^2 lap(u) by the explicit leapfrog
! scheme on a 2-D Cartesian process grid (MPI_Dims_create, MPI_Cart_create,
! MPI_Cart_shift). The halos go by MPI_Sendrecv in both directions: rows of
! the first index are strided and packed into buffers, columns of the second
! index are contiguous. No collective inside the time loop; the energy and
! a probe value are reduced once at the end. A Ricker source is injected at
! one grid point for the first steps.
!
! Usage: wave2d_cart [n [steps]]   (n x n grid, default 1200, 1000)
! Prints "result ..." lines and "loop: <k> iterations, <t> s, <t/k> s per iteration".
program wave2d_cart
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, n, nsteps, step, i, j
  integer :: dims(2), coords(2), cart, xlo, xhi, ylo, yhi
  integer :: nxl, nyl, i0, j0, isrc, jsrc, params(2)
  logical :: periods(2)
  double precision, allocatable :: uold(:,:), u(:,:), unew(:,:), vel(:,:)
  double precision, allocatable :: sbuf(:), rbuf(:)
  double precision :: dt, dx, c2, t0, t, tmax, e, etot, arg0, src, pmax, pmaxg
  character(len=32) :: arg

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  params = (/ 1200, 1000 /)
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    read (arg, *) params(1)
  end if
  if (command_argument_count() > 1) then
    call get_command_argument(2, arg)
    read (arg, *) params(2)
  end if
  n = params(1)
  nsteps = params(2)

  dims = 0
  call MPI_Dims_create(nprocs, 2, dims, ierr)
  periods = .false.
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .true., cart, ierr)
  call MPI_Comm_rank(cart, rank, ierr)
  call MPI_Cart_coords(cart, rank, 2, coords, ierr)
  call MPI_Cart_shift(cart, 0, 1, xlo, xhi, ierr)
  call MPI_Cart_shift(cart, 1, 1, ylo, yhi, ierr)
  nxl = n / dims(1)
  nyl = n / dims(2)
  i0 = coords(1) * nxl
  j0 = coords(2) * nyl

  allocate(uold(0:nxl+1, 0:nyl+1), u(0:nxl+1, 0:nyl+1), unew(0:nxl+1, 0:nyl+1))
  allocate(vel(nxl, nyl), sbuf(nyl), rbuf(nyl))
  uold = 0; u = 0; unew = 0
  dx = 1.0d0 / n
  ! a two-layer medium with a slow inclusion
  do j = 1, nyl
    do i = 1, nxl
      if (i0 + i > n / 2) then
        vel(i, j) = 1.5d0
      else
        vel(i, j) = 1.0d0
      end if
      if ((i0 + i - n/3)**2 + (j0 + j - 2*n/3)**2 < (n/10)**2) vel(i, j) = 0.6d0
    end do
  end do
  dt = 0.4d0 * dx / 1.5d0
  isrc = n / 4
  jsrc = n / 2

  call MPI_Barrier(cart, ierr)
  t0 = MPI_Wtime()
  do step = 1, nsteps
    ! halos in the first index: strided planes, packed
    do j = 1, nyl
      sbuf(j) = u(nxl, j)
    end do
    call MPI_Sendrecv(sbuf, nyl, MPI_DOUBLE_PRECISION, xhi, 1, rbuf, nyl, MPI_DOUBLE_PRECISION, xlo, 1, &
                      cart, MPI_STATUS_IGNORE, ierr)
    if (xlo /= MPI_PROC_NULL) then
      do j = 1, nyl
        u(0, j) = rbuf(j)
      end do
    end if
    do j = 1, nyl
      sbuf(j) = u(1, j)
    end do
    call MPI_Sendrecv(sbuf, nyl, MPI_DOUBLE_PRECISION, xlo, 2, rbuf, nyl, MPI_DOUBLE_PRECISION, xhi, 2, &
                      cart, MPI_STATUS_IGNORE, ierr)
    if (xhi /= MPI_PROC_NULL) then
      do j = 1, nyl
        u(nxl+1, j) = rbuf(j)
      end do
    end if
    ! halos in the second index: contiguous columns
    call MPI_Sendrecv(u(1, nyl), nxl, MPI_DOUBLE_PRECISION, yhi, 3, u(1, 0), nxl, MPI_DOUBLE_PRECISION, ylo, 3, &
                      cart, MPI_STATUS_IGNORE, ierr)
    call MPI_Sendrecv(u(1, 1), nxl, MPI_DOUBLE_PRECISION, ylo, 4, u(1, nyl+1), nxl, MPI_DOUBLE_PRECISION, yhi, 4, &
                      cart, MPI_STATUS_IGNORE, ierr)
    do j = 1, nyl
      do i = 1, nxl
        c2 = (vel(i, j) * dt / dx)**2
        unew(i, j) = 2 * u(i, j) - uold(i, j) + c2 * (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1) - 4 * u(i, j))
      end do
    end do
    if (step <= 60) then
      arg0 = (3.14159265358979d0 * 0.08d0 * (step - 30))**2
      src = (1 - 2 * arg0) * exp(-arg0)
      if (isrc > i0 .and. isrc <= i0 + nxl .and. jsrc > j0 .and. jsrc <= j0 + nyl) &
        unew(isrc - i0, jsrc - j0) = unew(isrc - i0, jsrc - j0) + src
    end if
    uold(1:nxl, 1:nyl) = u(1:nxl, 1:nyl)
    u(1:nxl, 1:nyl) = unew(1:nxl, 1:nyl)
  end do
  t = MPI_Wtime() - t0

  e = 0
  pmax = 0
  do j = 1, nyl
    do i = 1, nxl
      e = e + (u(i, j) - uold(i, j))**2 / dt**2 + (vel(i, j) / dx)**2 * (u(i, j) - u(i-1, j))**2
      pmax = max(pmax, abs(u(i, j)))
    end do
  end do
  call MPI_Reduce(e, etot, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, cart, ierr)
  call MPI_Reduce(pmax, pmaxg, 1, MPI_DOUBLE_PRECISION, MPI_MAX, 0, cart, ierr)
  call MPI_Reduce(t, tmax, 1, MPI_DOUBLE_PRECISION, MPI_MAX, 0, cart, ierr)
  if (rank == 0) then
    write (*, '(a,es20.12)') 'result energy ', etot * dx * dx
    write (*, '(a,es20.12)') 'result peak ', pmaxg
    write (*, '(a,i0,a,f10.6,a,es13.6,a)') 'loop: ', nsteps, ' iterations, ', tmax, ' s, ', tmax / nsteps, &
      ' s per iteration'
  end if
  call MPI_Comm_free(cart, ierr)
  deallocate(uold, u, unew, vel, sbuf, rbuf)
  call MPI_Finalize(ierr)
end program wave2d_cart
