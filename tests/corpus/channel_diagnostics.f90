! Advection-diffusion of two fields (u, v) in a channel split into slabs of
! rows, in the style of older Fortran codes: each halo row is exchanged
! with a blocking MPI_Send / MPI_Recv pair, guarded by "if I have a
! neighbour", so the ranks at the walls make fewer calls than the interior
! ones. Every step each worker sends its local diagnostics (maximum speed,
! kinetic energy) to rank 0 with MPI_Send; rank 0 receives them one by
! one. No collective in the loop.
!
! Usage: channel_diagnostics [n [steps]]   (n x n grid, default 480, 200)
! Prints "result energy <e>", "result umax <m>" and
! "loop: <k> iterations, <t> s, <t/k> s per iteration".
program channel_diagnostics
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, n, steps, rows, step, i, j, src
  double precision, allocatable :: u(:,:), v(:,:), un(:,:), vn(:,:)
  double precision :: diag(2), other(2), energy, umax, t0, t1, tmax
  double precision, parameter :: dt = 0.1d0, nu = 0.2d0
  character(len=32) :: arg
  integer :: status(MPI_STATUS_SIZE)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  n = 480
  steps = 200
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  if (command_argument_count() > 1) then
    call get_command_argument(2, arg)
    read (arg, *) steps
  end if
  rows = n / nprocs
  allocate(u(n, 0:rows+1), v(n, 0:rows+1), un(n, 0:rows+1), vn(n, 0:rows+1))
  u = 0; v = 0
  do j = 1, rows
    do i = 1, n
      u(i, j) = 1.0d0 + 0.1d0 * sin(6.283185307179586d0 * i / n) * cos(3.0d0 * (rank * rows + j) / n)
      v(i, j) = 0.05d0 * cos(6.283185307179586d0 * i / n)
    end do
  end do

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  t0 = MPI_Wtime()
  do step = 1, steps
    call exchange(u)
    call exchange(v)
    do j = 1, rows
      do i = 2, n - 1
        un(i, j) = u(i, j) - dt * (u(i, j) * (u(i+1, j) - u(i-1, j)) * 0.5d0 + v(i, j) * (u(i, j+1) - u(i, j-1)) &
                   * 0.5d0) + nu * dt * (u(i+1, j) + u(i-1, j) + u(i, j+1) + u(i, j-1) - 4 * u(i, j))
        vn(i, j) = v(i, j) - dt * (u(i, j) * (v(i+1, j) - v(i-1, j)) * 0.5d0 + v(i, j) * (v(i, j+1) - v(i, j-1)) &
                   * 0.5d0) + nu * dt * (v(i+1, j) + v(i-1, j) + v(i, j+1) + v(i, j-1) - 4 * v(i, j))
      end do
    end do
    u(2:n-1, 1:rows) = un(2:n-1, 1:rows)
    v(2:n-1, 1:rows) = vn(2:n-1, 1:rows)
    diag(1) = maxval(abs(u(:, 1:rows)))
    diag(2) = 0.5d0 * sum(u(:, 1:rows)**2 + v(:, 1:rows)**2)
    if (rank == 0) then
      umax = diag(1)
      energy = diag(2)
      do src = 1, nprocs - 1
        call MPI_Recv(other, 2, MPI_DOUBLE_PRECISION, src, 9, MPI_COMM_WORLD, status, ierr)
        umax = max(umax, other(1))
        energy = energy + other(2)
      end do
    else
      call MPI_Send(diag, 2, MPI_DOUBLE_PRECISION, 0, 9, MPI_COMM_WORLD, ierr)
    end if
  end do
  t1 = MPI_Wtime() - t0
  call MPI_Reduce(t1, tmax, 1, MPI_DOUBLE_PRECISION, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    print '(a, es22.14)', 'result energy ', energy
    print '(a, es22.14)', 'result umax ', umax
    print '(a, i0, a, f0.6, a, es12.5, a)', 'loop: ', steps, ' iterations, ', tmax, ' s, ', &
      tmax / steps, ' s per iteration'
  end if
  deallocate(u, v, un, vn)
  call MPI_Finalize(ierr)

contains

  ! Walls: the first and last ranks have one neighbour, and say so by not
  ! calling MPI at all on the wall side.
  subroutine exchange(f)
    double precision, intent(inout) :: f(n, 0:rows+1)
    if (mod(rank, 2) == 0) then
      if (rank < nprocs - 1) then
        call MPI_Send(f(1, rows), n, MPI_DOUBLE_PRECISION, rank + 1, 1, MPI_COMM_WORLD, ierr)
        call MPI_Recv(f(1, rows+1), n, MPI_DOUBLE_PRECISION, rank + 1, 2, MPI_COMM_WORLD, status, ierr)
      end if
      if (rank > 0) then
        call MPI_Send(f(1, 1), n, MPI_DOUBLE_PRECISION, rank - 1, 2, MPI_COMM_WORLD, ierr)
        call MPI_Recv(f(1, 0), n, MPI_DOUBLE_PRECISION, rank - 1, 1, MPI_COMM_WORLD, status, ierr)
      end if
    else
      call MPI_Recv(f(1, 0), n, MPI_DOUBLE_PRECISION, rank - 1, 1, MPI_COMM_WORLD, status, ierr)
      call MPI_Send(f(1, 1), n, MPI_DOUBLE_PRECISION, rank - 1, 2, MPI_COMM_WORLD, ierr)
      if (rank < nprocs - 1) then
        call MPI_Recv(f(1, rows+1), n, MPI_DOUBLE_PRECISION, rank + 1, 2, MPI_COMM_WORLD, status, ierr)
        call MPI_Send(f(1, rows), n, MPI_DOUBLE_PRECISION, rank + 1, 1, MPI_COMM_WORLD, ierr)
      end if
    end if
  end subroutine exchange

end program channel_diagnostics
