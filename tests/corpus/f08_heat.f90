! f08_heat.f90 -- explicit heat equation in modern Fortran with the
! mpi_f08 module: derived-type handles (type(MPI_Comm), type(MPI_Request)),
! a Cartesian communicator, halos by MPI_Irecv/MPI_Isend and MPI_Waitall,
! the interior updated while they travel, the boundary rows after, and the
! change reduced with MPI_Allreduce every step.
!
! Usage: f08_heat [n [steps]]   (default 1024 300)
! Prints "result change <d>", "result sum <s>" and
! "loop: <k> iterations, <t> s, <t/k> s per iteration".
program f08_heat
  use mpi_f08
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  type(MPI_Comm) :: grid
  type(MPI_Request) :: requests(4)
  integer :: rank, nprocs, n, steps, rows, first, up, down, step, i, j, dims(1)
  logical :: periods(1)
  real(dp), allocatable, asynchronous :: u(:, :)
  real(dp), allocatable :: v(:, :)
  real(dp) :: change, local, total, t0, t1
  character(len=32) :: arg

  call MPI_Init()
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  n = 1024
  steps = 300
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) steps
  end if
  dims(1) = nprocs
  periods(1) = .false.
  call MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, .false., grid)
  call MPI_Comm_rank(grid, rank)
  call MPI_Cart_shift(grid, 0, 1, up, down)
  rows = n / nprocs
  if (rank < mod(n, nprocs)) rows = rows + 1
  first = rank * (n / nprocs) + min(rank, mod(n, nprocs))

  ! Columns are the first index: a row of the grid is u(:, i), contiguous.
  allocate (u(n, 0:rows + 1), v(n, 0:rows + 1))
  u = 0.0_dp
  do i = 1, rows
    do j = 1, n
      u(j, i) = exp(-30.0_dp * (((real(j, dp) / n) - 0.5_dp)**2 + ((real(first + i, dp) / n) - 0.4_dp)**2))
    end do
  end do
  v = u

  call MPI_Barrier(grid)
  t0 = MPI_Wtime()
  do step = 1, steps
    call MPI_Irecv(u(:, 0), n, MPI_DOUBLE_PRECISION, up, 1, grid, requests(1))
    call MPI_Irecv(u(:, rows + 1), n, MPI_DOUBLE_PRECISION, down, 2, grid, requests(2))
    call MPI_Isend(u(:, rows), n, MPI_DOUBLE_PRECISION, down, 1, grid, requests(3))
    call MPI_Isend(u(:, 1), n, MPI_DOUBLE_PRECISION, up, 2, grid, requests(4))
    local = 0.0_dp
    do i = 2, rows - 1
      call relax(i)
    end do
    call MPI_Waitall(4, requests, MPI_STATUSES_IGNORE)
    call relax(1)
    if (rows > 1) call relax(rows)
    call MPI_Allreduce(local, change, 1, MPI_DOUBLE_PRECISION, MPI_SUM, grid)
    u(:, 1:rows) = v(:, 1:rows)
  end do
  t1 = MPI_Wtime()

  local = sum(u(:, 1:rows))
  call MPI_Reduce(local, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, grid)
  if (rank == 0) then
    write (*, '(a,es18.10)') 'result change ', change
    write (*, '(a,es18.10)') 'result sum ', total
    write (*, '(a,i0,a,f12.6,a,es14.6,a)') 'loop: ', steps, ' iterations, ', t1 - t0, ' s, ', &
      (t1 - t0) / steps, ' s per iteration'
  end if
  deallocate (u, v)
  call MPI_Comm_free(grid)
  call MPI_Finalize()

contains

  ! One row of the five-point update, its change added to `local`; the
  ! ends of the global grid stay fixed.
  subroutine relax(row)
    integer, intent(in) :: row
    integer :: k
    if ((rank == 0 .and. row == 1) .or. (rank == nprocs - 1 .and. row == rows)) return
    do k = 2, n - 1
      v(k, row) = u(k, row) + 0.2_dp * (u(k - 1, row) + u(k + 1, row) + u(k, row - 1) + u(k, row + 1) - 4.0_dp * u(k, row))
      local = local + (v(k, row) - u(k, row))**2
    end do
  end subroutine relax

end program f08_heat
