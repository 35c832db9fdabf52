! Steady heat conduction solved by weighted Jacobi until every rank has
! converged: the rows of an n x m plate lie in blocks over the ranks (the
! last ranks take the remainder), the top edge held hot and the others
! cold. The loop is a DO WHILE on a flag that one MPI_Allreduce of a
! LOGICAL with MPI_LAND sets: each rank's own test is that no cell of its
! block changed by more than the tolerance. Halo rows go by MPI_Sendrecv;
! every 25th sweep rank 0 prints the global residual (MPI_Reduce of the
! squared changes). The number of sweeps follows from the physics, not
! from an argument: the program cannot say in advance how long it runs.
!
! Usage: converge_land [n [m [tolerance]]]   (default 768 1536 5e-4)
! Prints "result ..." lines and "loop: <k> iterations, <t> s, <t/k> s per iteration".
program converge_land
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, n, m, rows, first, up, down, sweeps, i, j
  double precision, allocatable :: u(:,:), unew(:,:)
  double precision :: tol, change, largest, squares, total, t0, t, tmax, heat, heat_all
  logical :: mine_done, all_done
  character(len=32) :: arg

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  n = 768
  m = 1536
  tol = 5d-4
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  if (command_argument_count() > 1) then
    call get_command_argument(2, arg)
    read (arg, *) m
  end if
  if (command_argument_count() > 2) then
    call get_command_argument(3, arg)
    read (arg, *) tol
  end if

  ! block rows; the remainder to the last ranks
  rows = n / nprocs
  first = rank * rows
  if (rank >= nprocs - mod(n, nprocs)) then
    first = first + rank - (nprocs - mod(n, nprocs))
    rows = rows + 1
  end if
  up = rank - 1
  down = rank + 1
  if (rank == 0) up = MPI_PROC_NULL
  if (rank == nprocs - 1) down = MPI_PROC_NULL

  ! columns 0 and m+1 are the cold side walls; rows 0 and rows+1 the halos
  allocate (u(0:m + 1, 0:rows + 1), unew(0:m + 1, 0:rows + 1))
  u = 0d0
  if (rank == 0) u(:, 0) = 1d0
  unew = u

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  t0 = MPI_Wtime()
  sweeps = 0
  all_done = .false.
  do while (.not. all_done)
    sweeps = sweeps + 1
    call MPI_Sendrecv(u(1, 1), m, MPI_DOUBLE_PRECISION, up, 1, &
                      u(1, rows + 1), m, MPI_DOUBLE_PRECISION, down, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call MPI_Sendrecv(u(1, rows), m, MPI_DOUBLE_PRECISION, down, 2, &
                      u(1, 0), m, MPI_DOUBLE_PRECISION, up, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    largest = 0d0
    squares = 0d0
    do j = 1, rows
      do i = 1, m
        unew(i, j) = 0.2d0 * u(i, j) + 0.2d0 * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1))
        change = abs(unew(i, j) - u(i, j))
        largest = max(largest, change)
        squares = squares + change * change
      end do
    end do
    u(1:m, 1:rows) = unew(1:m, 1:rows)
    mine_done = largest < tol
    call MPI_Allreduce(mine_done, all_done, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
    if (mod(sweeps, 25) == 0) then
      call MPI_Reduce(squares, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
      if (rank == 0 .and. mod(sweeps, 500) == 0) write (*, '(a, i6, a, es12.4)') 'sweep ', sweeps, &
        ' residual ', sqrt(total)
    end if
  end do
  t = MPI_Wtime() - t0
  call MPI_Reduce(t, tmax, 1, MPI_DOUBLE_PRECISION, MPI_MAX, 0, MPI_COMM_WORLD, ierr)

  heat = sum(u(1:m, 1:rows))
  call MPI_Reduce(heat, heat_all, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    write (*, '(a, i0)') 'result sweeps ', sweeps
    write (*, '(a, es18.10)') 'result heat ', heat_all
    write (*, '(a, i0, a, f10.6, a, es14.6, a)') 'loop: ', sweeps, ' iterations, ', tmax, ' s, ', &
      tmax / sweeps, ' s per iteration'
  end if
  deallocate (u, unew)
  call MPI_Finalize(ierr)
end program converge_land
