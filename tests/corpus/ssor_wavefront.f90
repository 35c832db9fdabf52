! SSOR relaxation of a 2-D diffusion problem with a pipelined wavefront, in
! the style of the NAS LU benchmark. Setup: rank 0 reads an input deck and a
! table of forcing coefficients, then broadcasts every value on its own (as
! such codes do). Main loop: a lower sweep that pipelines blocks of columns
! from rank 0 to the last rank, an upper sweep back, and every inorm
! iterations a residual norm (MPI_Allreduce).
!
! Usage: ssor_wavefront deck forcing   (see ssor.in, ssor_forcing.in)
! Prints "result residual <r>", "result solution <s>" and
! "loop: <k> iterations, <t> s, <t/k> s per iteration".
program ssor_wavefront
  use mpi
  implicit none
  integer, parameter :: block = 16
  integer :: ierr, rank, nprocs, nx, ny, itmax, inorm, nk, k, it, rows, j0
  integer :: above, below
  double precision :: omega, dt, tolerance, rnorm, total, t0, t1, tmax
  double precision, allocatable :: u(:,:), f(:,:), a(:)
  character(len=256) :: deck, forcing

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  if (rank == 0) then
    call get_command_argument(1, deck)
    call get_command_argument(2, forcing)
    call read_deck(trim(deck))
    open (unit=12, file=trim(forcing), status='old', action='read')
    read (12, *)
    read (12, *) nk
  end if
  call MPI_Bcast(nx, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(ny, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(itmax, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(inorm, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(omega, 1, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(dt, 1, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(tolerance, 1, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(nk, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  allocate(a(nk))
  do k = 1, nk
    if (rank == 0) read (12, *) a(k)
    call MPI_Bcast(a(k), 1, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  end do
  if (rank == 0) close (12)

  rows = ny / nprocs
  j0 = rank * rows
  above = rank - 1
  below = rank + 1
  if (rank == 0) above = MPI_PROC_NULL
  if (rank == nprocs - 1) below = MPI_PROC_NULL
  allocate(u(0:nx+1, 0:rows+1), f(nx, rows))
  u = 0
  call set_forcing()

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  t0 = MPI_Wtime()
  rnorm = 0
  do it = 1, itmax
    call lower_sweep()
    call upper_sweep()
    if (mod(it, inorm) == 0 .or. it == itmax) then
      call MPI_Allreduce(local_residual(), total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
      rnorm = sqrt(total / (dble(nx) * ny))
      if (rnorm < tolerance) exit
    end if
  end do
  if (it > itmax) it = itmax
  t1 = MPI_Wtime() - t0
  call MPI_Reduce(t1, tmax, 1, MPI_DOUBLE_PRECISION, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
  call MPI_Reduce(sum(u(1:nx, 1:rows)), total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    print '(a, es22.14)', 'result residual ', rnorm
    print '(a, es22.14)', 'result solution ', total
    print '(a, i0, a, f0.6, a, es12.5, a)', 'loop: ', it, ' iterations, ', tmax, ' s, ', &
      tmax / it, ' s per iteration'
  end if
  deallocate(a, u, f)
  call MPI_Finalize(ierr)

contains

  subroutine read_deck(path)
    character(len=*), intent(in) :: path
    character(len=16) :: name
    open (unit=11, file=path, status='old', action='read')
    read (11, *)
    read (11, *) name, nx
    read (11, *) name, ny
    read (11, *) name, itmax
    read (11, *) name, inorm
    read (11, *) name, omega
    read (11, *) name, dt
    read (11, *) name, tolerance
    close (11)
  end subroutine read_deck

  subroutine set_forcing()
    integer :: i, j, m
    double precision, parameter :: pi = 3.141592653589793d0
    double precision :: x, y
    f = 0
    do j = 1, rows
      y = dble(j0 + j) / (ny + 1)
      do i = 1, nx
        x = dble(i) / (nx + 1)
        do m = 1, nk
          f(i, j) = f(i, j) + a(m) * sin(m * pi * x) * sin(m * pi * y)
        end do
      end do
    end do
  end subroutine set_forcing

  ! Gauss-Seidel in increasing (i, j): a block of columns can be relaxed
  ! once the rank above has relaxed its last row of the same columns.
  subroutine lower_sweep()
    integer :: i, j, i1, i2, status(MPI_STATUS_SIZE)
    double precision :: c
    c = 1.0d0 / (1.0d0 + 4.0d0 * dt)
    do i1 = 1, nx, block
      i2 = min(i1 + block - 1, nx)
      call MPI_Recv(u(i1, 0), i2 - i1 + 1, MPI_DOUBLE_PRECISION, above, 1, MPI_COMM_WORLD, status, ierr)
      do j = 1, rows
        do i = i1, i2
          u(i, j) = (1 - omega) * u(i, j) + omega * c * (u(i, j) + dt * (f(i, j) + u(i-1, j) + u(i, j-1) &
                    + u(i+1, j) + u(i, j+1)))
        end do
      end do
      call MPI_Send(u(i1, rows), i2 - i1 + 1, MPI_DOUBLE_PRECISION, below, 1, MPI_COMM_WORLD, ierr)
    end do
  end subroutine lower_sweep

  subroutine upper_sweep()
    integer :: i, j, i1, i2, status(MPI_STATUS_SIZE)
    double precision :: c
    c = 1.0d0 / (1.0d0 + 4.0d0 * dt)
    do i2 = nx, 1, -block
      i1 = max(i2 - block + 1, 1)
      call MPI_Recv(u(i1, rows+1), i2 - i1 + 1, MPI_DOUBLE_PRECISION, below, 2, MPI_COMM_WORLD, status, ierr)
      do j = rows, 1, -1
        do i = i2, i1, -1
          u(i, j) = (1 - omega) * u(i, j) + omega * c * (u(i, j) + dt * (f(i, j) + u(i-1, j) + u(i, j-1) &
                    + u(i+1, j) + u(i, j+1)))
        end do
      end do
      call MPI_Send(u(i1, 1), i2 - i1 + 1, MPI_DOUBLE_PRECISION, above, 2, MPI_COMM_WORLD, ierr)
    end do
  end subroutine upper_sweep

  double precision function local_residual()
    integer :: i, j, status(MPI_STATUS_SIZE)
    call MPI_Sendrecv(u(1, rows), nx, MPI_DOUBLE_PRECISION, below, 3, u(1, 0), nx, MPI_DOUBLE_PRECISION, above, 3, &
                      MPI_COMM_WORLD, status, ierr)
    call MPI_Sendrecv(u(1, 1), nx, MPI_DOUBLE_PRECISION, above, 4, u(1, rows+1), nx, MPI_DOUBLE_PRECISION, below, 4, &
                      MPI_COMM_WORLD, status, ierr)
    local_residual = 0
    do j = 1, rows
      do i = 1, nx
        local_residual = local_residual + (f(i, j) - (4 * u(i, j) - u(i-1, j) - u(i+1, j) - u(i, j-1) &
                         - u(i, j+1)))**2
      end do
    end do
  end function local_residual

end program ssor_wavefront
